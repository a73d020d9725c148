import { afterAll, afterEach, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { deleteRedisKeys } from '../testing/redis.js';
import { useTestDatabase } from '../testing/test-context.js';
import { eventually, startTestApp, waitForJobs, type TestApp } from '../testing/test-app.js';
import type { RateLimitStore } from '../infra/rate-limit/rate-limit-store.js';
import { clientKey, LeasedHits } from './api-rate-limit.js';

const stores: Array<{ store: string; env: Record<string, string> }> = [{ store: 'PostgreSQL', env: {} }];
if (process.env.REDIS_URL) stores.push({ store: 'Redis', env: { REDIS_URL: process.env.REDIS_URL } });

describe.each(stores)('the /api rate limit on $store', ({ env }) => {
  const db = useTestDatabase();
  const prefix = `fmtest_${randomBytes(4).toString('hex')}`;
  const apps: TestApp[] = [];

  /** Two web processes sharing one database and one queue prefix, as two instances behind a load balancer. */
  const startPair = async (limits: Record<string, string>) => {
    const pair = [];
    for (let i = 0; i < 2; i++) pair.push(await startTestApp(db, { ...env, QUEUE_PREFIX: prefix, CONTACT_RATE_LIMIT: '100', ...limits }));
    apps.push(...pair);
    return pair as [TestApp, TestApp];
  };
  // Each test's pair goes when it ends: eight app instances at once would hold 80 connections.
  afterEach(async () => {
    for (const t of apps.splice(0)) {
      await waitForJobs(db);
      await t.close();
    }
  });
  afterAll(async () => {
    if (env.REDIS_URL) await deleteRedisKeys(env.REDIS_URL, prefix);
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

  it('counts a busy client a lease at a time and still never lets it past the limit across instances', async () => {
    // A limit of 400 is taken in leases of 4: each instance reserves four hits per round trip.
    const [a, b] = await startPair({ API_RATE_LIMIT: '400', API_RATE_WINDOW_SECONDS: '60' });
    const get = (t: TestApp) => t.app.inject({ method: 'GET', url: '/api/categories', remoteAddress: '203.0.113.9' });
    const statuses: number[] = [];
    for (let i = 0; i < 420; i++) statuses.push((await get(i % 3 === 0 ? a : b)).statusCode);
    const allowed = statuses.filter((status) => status === 200).length;
    // Hits one instance reserved and did not spend count against the client in the other (at most a lease).
    expect(allowed).toBeLessThanOrEqual(400);
    expect(allowed).toBeGreaterThanOrEqual(400 - 3);
    // Near the limit one instance may still spend its lease while the other refuses; before, all
    // pass; once both leases are spent (a lease of the rarer instance lasts up to 12 requests), none.
    expect(statuses.slice(0, 400 - 4).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(400 + 12).every((status) => status === 429)).toBe(true);
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

describe('LeasedHits', () => {
  /** The shared store's behaviour (a fixed window of counts), recording each round trip. */
  const countingStore = () => {
    const counts = new Map<string, number>();
    const trips: number[] = [];
    const store: RateLimitStore = {
      hit: async (key, _windowSeconds, amount = 1) => {
        trips.push(amount);
        counts.set(key, (counts.get(key) ?? 0) + amount);
        return { count: counts.get(key) ?? 0, resetSeconds: 60 };
      },
      reset: async (key) => void counts.delete(key),
      close: async () => undefined,
    };
    return { store, trips };
  };

  it('asks the store once per lease and numbers the hits in between itself', async () => {
    const { store, trips } = countingStore();
    const hits = new LeasedHits(store, 60, 5);
    const counts = [];
    for (let i = 0; i < 12; i++) counts.push((await hits.hit('203.0.113.5')).count);
    expect(counts).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(trips).toEqual([5, 5, 5]);
  });

  it('takes one lease for requests that arrive together, so a page loading several calls at once is not counted many times', async () => {
    const { store, trips } = countingStore();
    const hits = new LeasedHits(store, 60, 5);
    const counts = await Promise.all(Array.from({ length: 12 }, () => hits.hit('203.0.113.5')));
    expect(counts.map((hit) => hit.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(trips).toEqual([5, 5, 5]);
  });

  it('takes a new lease when the window the store gave has ended', async () => {
    const { store, trips } = countingStore();
    let now = 0;
    const hits = new LeasedHits(store, 60, 5, () => now);
    await hits.hit('203.0.113.5');
    now = 61_000;
    await hits.hit('203.0.113.5');
    expect(trips).toEqual([5, 5]);
  });

  it('counts each client apart, and exactly with leases of one', async () => {
    const { store, trips } = countingStore();
    const hits = new LeasedHits(store, 60, 1);
    expect((await hits.hit('a')).count).toBe(1);
    expect((await hits.hit('b')).count).toBe(1);
    expect((await hits.hit('a')).count).toBe(2);
    expect(trips).toEqual([1, 1, 1]);
  });
});
