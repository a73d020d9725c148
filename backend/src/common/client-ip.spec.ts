import { afterEach, describe, expect, it } from '@jest/globals';
import { useTestDatabase } from '../testing/test-context.js';
import { startTestApp, waitForJobs, type TestApp } from '../testing/test-app.js';

const message = { name: 'Jane Farmer', email: 'jane@example.co.uk', subject: 'Hay', message: 'Is the hay still available?' };

describe('the client address behind reverse proxies (TRUST_PROXY)', () => {
  const db = useTestDatabase();
  const apps: TestApp[] = [];
  afterEach(async () => {
    for (const t of apps.splice(0)) {
      await waitForJobs(db);
      await t.close();
    }
    await db.query('delete from contact_message');
  });

  const start = async (env: Record<string, string>) => {
    const t = await startTestApp(db, { CONTACT_RATE_LIMIT: '2', ...env });
    apps.push(t);
    return t;
  };
  const post = (t: TestApp, from: string, forwardedFor?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: from,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      payload: message,
    });
  const storedClients = async () =>
    (await db.query<{ client_ip: string }>('select client_ip from contact_message')).map((r) => r.client_ip);

  it('with a hop count, a forged left-most X-Forwarded-For entry does not change the client the contact limit counts', async () => {
    const t = await start({ TRUST_PROXY: '1' });
    const statuses: number[] = [];
    // Each request claims another origin at the left; the proxy (10.0.0.2) appends who it saw.
    for (let i = 0; i < 4; i++) statuses.push((await post(t, '10.0.0.2', `6.6.6.${i}, 203.0.113.7`)).statusCode);
    expect(statuses).toEqual([201, 201, 429, 429]);
    expect(await storedClients()).toEqual(['203.0.113.7', '203.0.113.7']);
    // A client reaching the app directly, not through a proxy on a private network, is taken at its socket address.
    expect((await post(t, '198.51.100.20', '6.6.6.6')).statusCode).toBe(201);
    expect(await storedClients()).toContain('198.51.100.20');
  });

  it('with two hops, takes what the outer proxy saw', async () => {
    const t = await start({ TRUST_PROXY: '2' });
    expect((await post(t, '10.0.0.3', '6.6.6.6, 203.0.113.9, 10.0.0.9')).statusCode).toBe(201);
    expect(await storedClients()).toEqual(['203.0.113.9']);
  });

  it('with a list of proxy ranges, takes what the nearest trusted proxy saw, and ignores the header from anyone else', async () => {
    const t = await start({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' });
    // Two proxies of ours (10.0.0.3 saw 10.0.0.9, which saw the client); the left-most entry is forged.
    expect((await post(t, '10.0.0.3', '6.6.6.6, 203.0.113.8, 10.0.0.9')).statusCode).toBe(201);
    // A client talking to us directly cannot choose its address with the header.
    expect((await post(t, '198.51.100.9', '203.0.113.99')).statusCode).toBe(201);
    expect((await storedClients()).sort()).toEqual(['198.51.100.9', '203.0.113.8']);
  });

  it('without TRUST_PROXY, ignores X-Forwarded-For altogether', async () => {
    const t = await start({});
    expect((await post(t, '198.51.100.10', '203.0.113.50')).statusCode).toBe(201);
    expect(await storedClients()).toEqual(['198.51.100.10']);
  });
});
