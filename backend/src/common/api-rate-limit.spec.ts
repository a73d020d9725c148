import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { deleteRedisKeys } from '../testing/redis.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { eventually, startTestApp, waitForJobs, type TestApp } from '../testing/test-app.js';
import { clientKey } from './api-rate-limit.js';

const stores: Array<{ store: string; env: Record<string, string> }> = [{ store: 'PostgreSQL', env: {} }];
if (process.env.REDIS_URL) stores.push({ store: 'Redis', env: { REDIS_URL: process.env.REDIS_URL } });

describe.each(stores)('the /api rate limit on $store', ({ env }) => {
  let db: TestDatabase;
  const prefix = `fmtest_${randomBytes(4).toString('hex')}`;
  const apps: TestApp[] = [];

  /** Two web processes sharing one database and one queue prefix, as two instances behind a load balancer. */
  const startPair = async (limits: Record<string, string>) => {
    const pair = [];
    for (let i = 0; i < 2; i++) pair.push(await startTestApp(db, { ...env, QUEUE_PREFIX: prefix, CONTACT_RATE_LIMIT: '100', ...limits }));
    apps.push(...pair);
    return pair as [TestApp, TestApp];
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    for (const t of apps) {
      await waitForJobs(db);
      await t.close();
    }
    if (env.REDIS_URL) await deleteRedisKeys(env.REDIS_URL, prefix);
    await db.drop();
  });

  it('holds one limit for a client across two app instances, with Retry-After and the envelope', async () => {
    const [a, b] = await startPair({ API_RATE_LIMIT: '5', API_RATE_WINDOW_SECONDS: '60' });
    const get = (t: TestApp, ip: string, url = '/api/categories') => t.app.inject({ method: 'GET', url, remoteAddress: ip });
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await get(i % 2 === 0 ? a : b, '203.0.113.5')).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);

    const limited = await get(a, '203.0.113.5');
    const wait = Number(limited.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(limited.json()).toEqual({ success: false, error: `Too many requests. Please wait ${wait} seconds and try again.` });

    // Writes are limited too, and nothing is stored.
    const contact = await b.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: '203.0.113.5',
      payload: { name: 'Jane', email: 'jane@example.co.uk', subject: 'Hay', message: 'Is the hay still available?' },
    });
    expect(contact.statusCode).toBe(429);
    expect(await db.query(`select id from contact_message where client_ip = '203.0.113.5'`)).toHaveLength(0);

    // Health probes from that address still get through; other clients are unaffected.
    expect((await get(b, '203.0.113.5', '/api/health')).statusCode).toBe(200);
    expect((await get(b, '203.0.113.6')).statusCode).toBe(200);
  });

  it('counts an IPv6 client by its /64 network', async () => {
    const [a, b] = await startPair({ API_RATE_LIMIT: '2', API_RATE_WINDOW_SECONDS: '60' });
    const get = (t: TestApp, ip: string) => t.app.inject({ method: 'GET', url: '/api/categories', remoteAddress: ip });
    expect((await get(a, '2001:db8:1:2::10')).statusCode).toBe(200);
    expect((await get(b, '2001:db8:1:2:ffff::20')).statusCode).toBe(200);
    expect((await get(a, '2001:db8:1:2::30')).statusCode).toBe(429);
    expect((await get(b, '2001:db8:1:3::10')).statusCode).toBe(200);
  });

  it('lets the client in again once the window it was told to wait for has passed', async () => {
    const [a, b] = await startPair({ API_RATE_LIMIT: '1', API_RATE_WINDOW_SECONDS: '1' });
    const get = (t: TestApp) => t.app.inject({ method: 'GET', url: '/api/categories', remoteAddress: '203.0.113.7' });
    expect((await get(a)).statusCode).toBe(200);
    expect((await get(b)).statusCode).toBe(429);
    await eventually(async () => expect((await get(b)).statusCode).toBe(200));
  });
});

describe('clientKey', () => {
  it.each([
    ['203.0.113.5', '203.0.113.5'],
    ['::ffff:203.0.113.5', '203.0.113.5'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002::1', '2001:db8:1:2::/64'],
    ['2001:db8::1:2:3:4:5', '2001:db8:0:1::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s → %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });
});
