import { afterEach, describe, expect, it } from '@jest/globals';
import { useTestDatabase } from '../../testing/test-context.js';
import { startTestApp, type TestApp } from '../../testing/test-app.js';

const TOKEN = 'operator-token-for-tests-0123456789abcdef';
/** S3 on a closed port: the storage check fails with a raw connection error naming host and bucket. */
const BROKEN_S3 = { S3_BUCKET: 'fm-private-bucket', S3_ENDPOINT: 'http://127.0.0.1:9', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };

type Check = { name: string; status: string; message: string; description?: string; details?: Record<string, unknown> };

describe('health', () => {
  const db = useTestDatabase();
  const apps: TestApp[] = [];
  const start = async (env: Record<string, string> = {}) => {
    const t = await startTestApp(db, env);
    apps.push(t);
    return t;
  };
  // Each app holds its own pools: close it after its test, so a file never holds many at once.
  afterEach(async () => {
    for (const t of apps.splice(0)) await t.close();
  });

  describe('GET /api/health (public)', () => {
    it('says ok and names each dependency in words, without paths or internals', async () => {
      const t = await start();
      const response = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(200);
      const { data } = response.json<{ data: { status: string; checks: Check[] } }>();
      expect(data.status).toBe('ok');
      expect(data.checks.map(({ name, status, message }) => [name, status, message])).toEqual([
        ['database', 'up', 'Database is available'],
        ['queue', 'up', 'Job queue is available'],
        ['storage', 'up', 'Image storage is available'],
        ['mail', 'up', 'Mail delivery is available'],
        ['jobs', 'up', 'Background work is available'],
      ]);
      expect(data.checks.every((c) => Object.keys(c).sort().join() === 'message,name,status,timestamp')).toBe(true);
      expect(response.body).not.toContain(t.config.dataDir);
    });

    it('answers 503 naming what is down in words; no host, bucket or raw error', async () => {
      const t = await start(BROKEN_S3);
      const response = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(response.statusCode).toBe(503);
      const body = response.json<{ success: boolean; error: string; details: { status: string; checks: Check[] } }>();
      expect(body).toMatchObject({ success: false, error: 'Image storage is unavailable', details: { status: 'down' } });
      expect(body.details.checks.find((c) => c.name === 'storage')).toMatchObject({
        status: 'down',
        message: 'Image storage is unavailable',
      });
      for (const secret of ['fm-private-bucket', '127.0.0.1', 'ECONNREFUSED', t.config.dataDir])
        expect(response.body).not.toContain(secret);
    });
  });

  describe('background work', () => {
    it.each([
      ['failing and being retried', `'connect ECONNREFUSED 10.0.0.9:25'`, 'null', { stuck: 0, retrying: 1, failed: 0 }],
      ['failed for good', `'connect ECONNREFUSED 10.0.0.9:25'`, 'now()', { stuck: 0, retrying: 0, failed: 1 }],
      ['not handed to the queue for minutes', 'null', 'null', { stuck: 1, retrying: 0, failed: 0 }],
    ])('is "degraded" (still 200) while a job is %s, with the counts for operators', async (_label, lastError, failedAt, counts) => {
      const t = await start({ WORKERS_IN_PROCESS: 'false', OPERATOR_TOKEN: TOKEN });
      await db.query(`delete from outbox_job`);
      await db.query(
        `insert into outbox_job (id, name, queue, payload, created_at, enqueued_at, last_error, failed_at, attempts, leased_until)
         values (gen_random_uuid(), 'contact.notify-staff', 'mail', '{}', now() - interval '10 minutes',
                 ${lastError === 'null' ? 'null' : 'now()'}, ${lastError}, ${failedAt}, 3, now() + interval '1 hour')`,
      );
      try {
        const response = await t.app.inject({ method: 'GET', url: '/api/health' });
        expect(response.statusCode).toBe(200);
        const { data } = response.json<{ data: { status: string; checks: Check[] } }>();
        expect(data.status).toBe('degraded');
        expect(data.checks.find((c) => c.name === 'jobs')).toMatchObject({
          status: 'degraded',
          message: 'Some background work (such as e-mail) is delayed',
        });
        expect(response.body).not.toContain('ECONNREFUSED');
        const details = await t.app.inject({ method: 'GET', url: '/api/health/details', headers: { authorization: `Bearer ${TOKEN}` } });
        const jobs = details.json<{ data: { checks: Check[] } }>().data.checks.find((c) => c.name === 'jobs');
        expect(jobs?.details).toEqual(counts);
      } finally {
        await db.query(`delete from outbox_job`);
      }
    });
  });

  describe('GET /api/health/details (operators)', () => {
    it('does not exist when no OPERATOR_TOKEN is configured', async () => {
      const t = await start();
      const response = await t.app.inject({ method: 'GET', url: '/api/health/details', headers: { authorization: `Bearer ${TOKEN}` } });
      expect([response.statusCode, response.json()]).toEqual([
        404,
        { success: false, error: 'No API endpoint at GET /api/health/details' },
      ]);
    });

    it.each([
      ['no token', {}],
      ['a wrong token', { authorization: `Bearer ${TOKEN.replace('0', '1')}` }],
      ['a token of another length', { authorization: 'Bearer short' }],
      ['another scheme', { authorization: `Basic ${TOKEN}` }],
    ])('refuses %s with 401', async (_label, headers) => {
      const t = await start({ OPERATOR_TOKEN: TOKEN });
      const response = await t.app.inject({ method: 'GET', url: '/api/health/details', headers });
      expect(response.statusCode).toBe(401);
      expect(response.headers['www-authenticate']).toBe('Bearer realm="operator"');
      expect(response.json()).toEqual({
        success: false,
        error: 'This endpoint needs the operator token: send Authorization: Bearer <OPERATOR_TOKEN>.',
      });
    });

    it('shows the operator what was checked where, raw errors and job counts', async () => {
      const t = await start({ ...BROKEN_S3, OPERATOR_TOKEN: TOKEN });
      const response = await t.app.inject({ method: 'GET', url: '/api/health/details', headers: { authorization: `Bearer ${TOKEN}` } });
      expect(response.statusCode).toBe(200);
      const { data } = response.json<{ data: { status: string; checks: Check[] } }>();
      const check = (name: string) => data.checks.find((c) => c.name === name);
      expect(data.status).toBe('down');
      expect(check('storage')).toMatchObject({ status: 'down', message: 'Image storage is unavailable' });
      expect(check('storage')?.description).toMatch(/^storage unavailable: /);
      expect(check('mail')?.description).toBe(`outbox at ${t.config.mail.outboxDir}`);
      expect(check('queue')?.details).toEqual({ queues: expect.arrayContaining([expect.objectContaining({ failed: 0 })]) });
    });
  });
});
