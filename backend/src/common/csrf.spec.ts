import { afterEach, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../config/env.js';
import { useTestApp } from '../testing/test-context.js';
import { waitForJobs } from '../testing/test-app.js';
import { isAllowedOrigin } from './csrf.js';

const message = { name: 'Jane Farmer', email: 'jane@example.co.uk', subject: 'Hay', message: 'Is the hay still available?' };
const refused = { success: false, error: 'Cross-site requests are not allowed.' };

describe('cross-site requests', () => {
  const { db, t } = useTestApp({
    PUBLIC_URL: 'https://fieldmarket.example',
    CORS_ORIGINS: 'https://partner.example, http://localhost:4321',
    CONTACT_RATE_LIMIT: '100',
  });
  afterEach(async () => {
    await waitForJobs(db);
    await db.query('delete from contact_message');
  });

  const post = (headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/contact', headers: { host: 'fieldmarket.example', ...headers }, payload: message });

  it.each([
    ['a foreign Origin', { origin: 'https://evil.example' }],
    ['a foreign Origin on our Host name with another port', { origin: 'https://fieldmarket.example:8443' }],
    ['the opaque Origin of a sandboxed frame', { origin: 'null' }],
    ['a browser saying cross-site without an Origin', { 'sec-fetch-site': 'cross-site' }],
    ['a browser saying same-site (a sibling subdomain) without an Origin', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a POST with %s: 403, and nothing stored', async (_label, headers) => {
    const response = await post(headers);
    expect([response.statusCode, response.json()]).toEqual([403, refused]);
    expect(await db.query('select id from contact_message')).toHaveLength(0);
  });

  it.each([
    ['our own PUBLIC_URL origin', { origin: 'https://fieldmarket.example', 'sec-fetch-site': 'same-origin' }],
    ['an origin listed in CORS_ORIGINS', { origin: 'https://partner.example', 'sec-fetch-site': 'cross-site' }],
    ['the name the site was reached by (its Host)', { host: '127.0.0.1:3000', origin: 'http://127.0.0.1:3000' }],
    ['no Origin at all (curl, a server)', {}],
  ])('accepts a POST from %s', async (_label, headers) => {
    expect((await post(headers)).statusCode).toBe(201);
  });

  it('lets any site read (GET is not state-changing)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/categories', headers: { origin: 'https://evil.example' } });
    expect(response.statusCode).toBe(200);
  });
});

describe('isAllowedOrigin', () => {
  const config = loadConfig({ PUBLIC_URL: 'https://fieldmarket.example/', CORS_ORIGINS: 'https://partner.example/' });

  it.each([
    ['https://fieldmarket.example', undefined, true],
    ['HTTPS://FIELDMARKET.EXAMPLE:443', undefined, true],
    ['https://partner.example', undefined, true],
    ['http://fieldmarket.example', undefined, false],
    ['https://fieldmarket.example.evil.example', undefined, false],
    ['https://evil.example', undefined, false],
    ['null', undefined, false],
    ['not a url', undefined, false],
    ['https://fieldmarket.example, https://evil.example', undefined, false],
    ['http://10.0.0.5:3000', '10.0.0.5:3000', true],
    ['http://10.0.0.5:3000', 'fieldmarket.example', false],
  ])('%s (Host %s) → %s', (origin, host, allowed) => {
    expect(isAllowedOrigin(origin, config, host)).toBe(allowed);
  });
});
