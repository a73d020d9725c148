import { afterEach, describe, expect, it } from '@jest/globals';
import { signedInPerson } from '../../testing/accounts.js';
import { startSmtpSink } from '../../testing/smtp-sink.js';
import { createTestDatabase } from '../../testing/test-database.js';
import { useTestApp } from '../../testing/test-context.js';
import { FeedbackSubscriber } from './feedback.subscriber.js';
import { eventually, readOutbox, startTestApp, waitForJobs } from '../../testing/test-app.js';

const valid = {
  name: 'Jane Farmer',
  email: 'jane@example.co.uk',
  category: 'feature-request',
  rating: 4,
  message: 'Saved searches would help me find hay in Devon.',
};

describe('POST /api/feedback', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300' });
  afterEach(async () => {
    await waitForJobs(db);
    await db.query('delete from feedback');
  });

  let clients = 0;
  const post = (payload: unknown, ip = `10.1.0.${++clients}`) =>
    t.app.inject({ method: 'POST', url: '/api/feedback', payload: payload as Record<string, string>, remoteAddress: ip });

  it.each([
    ['name', 'Name is required', { ...valid, name: '  ' }],
    ['name', 'Name must be on one line', { ...valid, name: 'Jane\nBcc: x@example.com' }],
    ['email', 'Email is required', { ...valid, email: undefined }],
    ['email', 'Please enter a valid email address', { ...valid, email: 'jane@farm' }],
    ['category', 'Please select a category', { ...valid, category: undefined }],
    ['category', 'Please select a category', { ...valid, category: 'Complaint' }],
    ['rating', 'Please provide a rating', { ...valid, rating: undefined }],
    ['rating', 'Please provide a rating', { ...valid, rating: 0 }],
    ['rating', 'Please provide a rating', { ...valid, rating: 6 }],
    ['rating', 'Please provide a rating', { ...valid, rating: 3.5 }],
    ['rating', 'Please provide a rating', { ...valid, rating: '4' }],
    ['message', 'Message is required', { ...valid, message: '' }],
    ['message', 'Message must be at least 10 characters', { ...valid, message: '   too short   ' }],
    ['message', 'Message must be at most 1000 characters', { ...valid, message: 'x'.repeat(1001) }],
  ])('refuses a bad %s with "%s", storing nothing', async (field, message, payload) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: message, fields: { [field]: message } });
    expect(await db.query('select id from feedback')).toHaveLength(0);
  });

  it('reports every invalid field at once, joined with commas in the form order', async () => {
    const response = await post({});
    expect(response.statusCode).toBe(400);
    expect(response.json<{ error: string }>().error).toBe(
      'Name is required, Email is required, Please select a category, Please provide a rating, Message is required',
    );
  });

  it('stores the fields as fields, trimmed, with no account for a visitor, and ignores fields a client may not set', async () => {
    const response = await post({
      ...valid,
      message: `  ${valid.message}  `,
      readAt: '2020-01-01',
      archivedAt: '2020-01-01',
      assignedToId: '00000000-0000-4000-8000-000000000000',
      user: 'x',
      staffNotifiedAt: '2020-01-01',
    });
    expect(response.statusCode).toBe(201);
    const { id } = response.json<{ data: { id: string } }>().data;
    expect(
      await db.query('select id, name, email, category, rating, message, user_id, read_at, archived_at, assigned_to_id from feedback'),
    ).toEqual([{ id, ...valid, user_id: null, read_at: null, archived_at: null, assigned_to_id: null }]);
  });

  it('records the signed-in user who sent it, and lists it in their export', async () => {
    const { browser, id: userId } = await signedInPerson(t);
    const response = await browser.call('POST', '/api/feedback', valid);
    expect(response.statusCode).toBe(201);
    const [row] = await db.query<{ user_id: string }>('select user_id from feedback where id = $1', [
      response.json<{ data: { id: string } }>().data.id,
    ]);
    expect(row?.user_id).toBe(userId);
    const exported = await browser.call('GET', '/api/profile/export');
    expect(exported.json<{ data: { feedback: unknown[] } }>().data.feedback).toEqual([
      expect.objectContaining({ category: 'feature-request', rating: 4, message: valid.message }),
    ]);
  });

  it('mails staff once, with the category, rating and a reply-to the sender', async () => {
    const { id } = (await post(valid)).json<{ data: { id: string } }>().data;
    await waitForJobs(db);
    const mails = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.messageId.includes(id));
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: t.config.mail.staffAddress,
      subject: '[Feedback] Feature Request, rated 4/5',
      replyTo: `Jane Farmer <${valid.email}>`,
    });
    expect(mails[0]?.text).toContain(valid.message);
    // Delivered again (at least once): recorded, so no second copy.
    const event = {
      id: 'redelivered',
      name: 'feedback.received' as const,
      occurredAt: new Date().toISOString(),
      payload: { feedbackId: id },
    };
    await t.app.get(FeedbackSubscriber).notifyStaff(event);
    expect((await readOutbox(t.config.mail.outboxDir)).filter((m) => m.messageId.includes(id))).toHaveLength(1);
    // Nothing goes back to the address the sender typed: the form cannot mail strangers.
    expect((await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === valid.email)).toHaveLength(0);
  });

  it('limits each client: the sixth in 15 minutes is a 429 with Retry-After, and another client is unaffected', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await post(valid, '10.9.9.9')).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = await post(valid, '10.9.9.9');
    expect(limited.json()).toEqual({
      success: false,
      error: 'Too much feedback from your connection. Please wait a few minutes and try again.',
    });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(await db.query('select id from feedback')).toHaveLength(5);
    expect((await post(valid, '10.9.9.10')).statusCode).toBe(201);
  });

  it("removes a deleted account's feedback", async () => {
    const { browser, person } = await signedInPerson(t);
    await browser.call('POST', '/api/feedback', valid);
    await post(valid); // a visitor's stays
    const deleted = await browser.call('DELETE', '/api/profile', { password: person.password });
    expect(deleted.statusCode).toBe(200);
    await waitForJobs(db);
    expect(await db.query('select user_id from feedback')).toEqual([{ user_id: null }]);
  });
});

describe('feedback mail to staff over SMTP', () => {
  it('retries a refused delivery and sends the copy once', async () => {
    const db = await createTestDatabase();
    const smtp = await startSmtpSink();
    const t = await startTestApp(db, { OUTBOX_POLL_SECONDS: '300', SMTP_URL: smtp.url, STAFF_EMAIL: 'staff@fieldmarket.test' });
    try {
      smtp.failNextDeliveryTo('staff@fieldmarket.test');
      const response = await t.app.inject({ method: 'POST', url: '/api/feedback', payload: valid });
      expect(response.statusCode).toBe(201);
      await eventually(async () => {
        const [entry] = await db.query<{ attempts: number; completed_at: Date | null }>(
          `select attempts, completed_at from outbox_job where name = 'feedback.notify-staff'`,
        );
        if (!entry?.completed_at) throw new Error('not delivered yet');
        expect(entry.attempts).toBe(2);
      });
      await waitForJobs(db);
      expect(smtp.received.filter((m) => m.to.includes('staff@fieldmarket.test'))).toHaveLength(1);
      const [row] = await db.query<{ staff_notified_at: Date | null }>('select staff_notified_at from feedback');
      expect(row?.staff_notified_at).not.toBeNull();
    } finally {
      await t.close();
      await smtp.close();
      await db.drop();
    }
  });
});
