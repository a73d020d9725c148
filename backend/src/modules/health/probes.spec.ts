import { describe, expect, it } from '@jest/globals';
import { createWebApp } from '../../bootstrap/web-app.js';
import { insertListing } from '../../testing/listings.js';
import { signedUpPerson } from '../../testing/accounts.js';
import { startTcpProxy } from '../../testing/tcp-proxy.js';
import { testConfig } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';

const TOKEN = 'operator-token-for-tests-0123456789abcdef';

describe('operators: probes and metrics', () => {
  const { db, t } = useTestApp({ OPERATOR_TOKEN: TOKEN });

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('answers liveness without asking any dependency', async () => {
    const live = await get('/api/health/live');
    expect(live.statusCode).toBe(200);
    expect(live.json()).toMatchObject({ success: true, data: { status: 'alive' } });
  });

  it('is ready when every migration is applied, and not ready while one is pending', async () => {
    const ready = await get('/api/health/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ data: { status: 'ready' } });

    const [latest] = await db.query<{ id: number; name: string }>('select id, name from mikro_orm_migrations order by id desc limit 1');
    await db.query('delete from mikro_orm_migrations where id = $1', [latest?.id]);
    try {
      const pending = await get('/api/health/ready');
      expect(pending.statusCode).toBe(503);
      expect(pending.json()).toMatchObject({
        success: false,
        error: `Not ready: 1 migration is pending (${latest?.name}); run ./fieldmarket migrate`,
      });
    } finally {
      await db.query('insert into mikro_orm_migrations (id, name, executed_at) values ($1, $2, now())', [latest?.id, latest?.name]);
    }
    expect((await get('/api/health/ready')).statusCode).toBe(200);
  });

  it('is not ready while the database is unreachable, and ready again when it is back', async () => {
    const target = new URL(db.url);
    const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const throughProxy = new URL(db.url);
    throughProxy.port = String(proxy.port);
    const config = await testConfig(db, { DATABASE_URL: throughProxy.toString(), REDIS_URL: process.env.REDIS_URL });
    const app = await createWebApp(config, throughProxy.toString());
    let cut = false;
    try {
      expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
      await proxy.cut();
      cut = true;
      const down = await app.inject({ method: 'GET', url: '/api/health/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json<{ error: string }>().error).toMatch(/^Not ready: the database is unreachable/);
      expect((await app.inject({ method: 'GET', url: '/api/health/live' })).statusCode).toBe(200);
      await proxy.restore();
      cut = false;
      expect((await app.inject({ method: 'GET', url: '/api/health/ready' })).statusCode).toBe(200);
    } finally {
      if (cut) await proxy.restore();
      await app.close();
      await proxy.close();
    }
  });

  it('refuses /metrics without the operator token, and with it shows latency per route pattern, queues and the process', async () => {
    const none = await get('/metrics');
    expect(none.statusCode).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer realm="operator"');
    expect((await get('/metrics', { authorization: 'Bearer wrong-token' })).statusCode).toBe(401);

    // Signed up through the API: its confirmation mail is the mail job the figures below show.
    const seller = await signedUpPerson(t, db);
    const listingId = await insertListing(db, { seller: seller.id, title: 'Metrics test baler' });
    expect((await get(`/api/listings/${listingId}`)).statusCode).toBe(200);

    const metrics = await get('/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-type']).toContain('text/plain');
    const text = metrics.body;
    expect(text).toMatch(/fieldmarket_http_request_duration_seconds_bucket\{[^}]*route="\/api\/listings\/:id"[^}]*\} \d+/);
    expect(text).toContain('fieldmarket_http_request_duration_seconds_count{method="GET",route="/api/listings/:id",status_code="200"} 1');
    expect(text).not.toContain(listingId);
    expect(text).toMatch(/fieldmarket_queue_jobs\{queue="mail",state="waiting"\} \d+/);
    expect(text).toMatch(/fieldmarket_queue_jobs\{queue="mail",state="completed"\} \d+/);
    expect(text).toMatch(/fieldmarket_job_duration_seconds_count\{queue="mail",name="[\w.-]+",outcome="completed"\} \d+/);
    expect(text).toMatch(/fieldmarket_socket_connections \d+/);
    expect(text).toMatch(/fieldmarket_process_resident_memory_bytes \d+/);
  });
});
