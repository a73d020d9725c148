import { afterEach, describe, expect, it } from '@jest/globals';
import { useTestApp } from '../../testing/test-context.js';
import { waitForJobs } from '../../testing/test-app.js';

const valid = {
  name: 'Jane Farmer',
  email: 'jane@example.co.uk',
  subject: 'Tractor hire',
  message: 'Do you list tractors for hire in Devon?',
};

describe('POST /api/contact: line breaks and control characters', () => {
  const { db, t } = useTestApp({ CONTACT_RATE_LIMIT: '100' });
  afterEach(async () => {
    await waitForJobs(db);
    await db.query('delete from contact_message');
  });

  const post = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/contact', payload: payload as Record<string, string> });

  it.each([
    ['name', 'Name must be on one line', { ...valid, name: 'Jane\r\nBcc: evil@attacker.example' }],
    ['name', 'Name must be on one line', { ...valid, name: 'Jane\u2028Farmer' }],
    ['name', 'Name must not contain control characters', { ...valid, name: 'Jane\u0007Farmer' }],
    ['subject', 'Subject must be on one line', { ...valid, subject: 'Hay\nX-Priority: 1' }],
    ['subject', 'Subject must be on one line', { ...valid, subject: 'Hay\rX-Priority: 1' }],
    ['subject', 'Subject must not contain control characters', { ...valid, subject: 'Hay \u001b[31mURGENT' }],
    ['subject', 'Subject must not contain control characters', { ...valid, subject: 'Hay\tbales' }],
    ['message', 'Message must not contain control characters', { ...valid, message: 'Ring the bell \u0007 twice please' }],
    ['message', 'Message must not contain control characters', { ...valid, message: 'Hidden \u0085 next line please' }],
  ])('refuses a %s with "%s", storing nothing', async (field, message, payload) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: message, fields: { [field]: message } });
    expect(await db.query('select id from contact_message')).toHaveLength(0);
  });

  it('keeps the first failing rule of a field: "is required" still wins', async () => {
    const response = await post({ ...valid, name: '\r\n' });
    expect(response.json()).toEqual({ success: false, error: 'Name is required', fields: { name: 'Name is required' } });
  });

  it('accepts line breaks and tabs in the message, and keeps them', async () => {
    const message = 'Two questions:\r\n\t1. Do you list tractors?\n\t2. In Devon?';
    const response = await post({ ...valid, message });
    expect(response.statusCode).toBe(201);
    expect(await db.query('select message from contact_message')).toEqual([{ message }]);
  });
});
