import { describe, expect, it } from '@jest/globals';
import { createServer, type AddressInfo } from 'node:net';
import { createTestDatabase } from './testing/test-database.js';
import { deleteRedisKeys } from './testing/redis.js';
import { JobQueue } from './infra/queue/job-queue.service.js';
import { BUILT, spawnBuilt, type RunningProcess } from './testing/processes.js';
import { eventually, readOutbox, startTestApp } from './testing/test-app.js';

const OPERATOR_TOKEN = 'operator-token-for-the-worker-metrics-test';

/** A port nobody listens on now (the OS picks it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const backends: Array<{ name: string; env: Record<string, string> }> = [{ name: 'PostgreSQL', env: {} }];
if (process.env.REDIS_URL) backends.push({ name: 'Redis', env: { REDIS_URL: process.env.REDIS_URL } });

describe('the worker process', () => {
  it.each(backends)('delivers contact mail queued by a web process that runs no workers ($name queues)', async ({ env }) => {
    const db = await createTestDatabase();
    const t = await startTestApp(db, { ...env, WORKERS_IN_PROCESS: 'false' });
    let worker: RunningProcess | undefined;
    try {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        payload: { name: 'Sam', email: 'sam@example.co.uk', subject: 'Worker', message: 'Handled by the worker process' },
      });
      expect(response.statusCode).toBe(201);
      // Handed to the queue, where no worker listens: the jobs wait and nothing is mailed.
      const jobs = t.app.get(JobQueue);
      await eventually(async () => {
        const entries = await db.query<{ id: string; enqueued_at: Date | null }>('select id, enqueued_at from outbox_job');
        expect(entries).toHaveLength(2);
        for (const entry of entries) {
          expect(entry.enqueued_at).not.toBeNull();
          expect(await jobs.stateOf('mail', entry.id)).toBe('waiting');
        }
      });
      expect(await jobs.workerCount('mail')).toBe(0);
      expect(await readOutbox(t.config.mail.outboxDir)).toHaveLength(0);

      const metricsPort = await freePort();
      worker = spawnBuilt(BUILT.worker, {
        ...env,
        DATABASE_URL: db.url,
        QUEUE_PREFIX: t.config.queue.prefix,
        MAIL_OUTBOX_DIR: t.config.mail.outboxDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        OPERATOR_TOKEN,
        WORKER_METRICS_PORT: String(metricsPort),
      });
      const mails = await eventually(async () => {
        const all = await readOutbox(t.config.mail.outboxDir);
        if (all.length < 2) throw new Error(`${all.length} mails so far`);
        return all;
      }, 30_000);
      expect(mails.map((m) => m.to).sort()).toEqual(['sam@example.co.uk', t.config.mail.staffAddress].sort());

      // The jobs ran here, so their durations are on the worker's own /metrics, behind the operator token.
      const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
      // It listens once the worker's modules have started, which may be after its first jobs ran.
      expect(await eventually(async () => (await fetch(metrics)).status)).toBe(401);
      expect((await fetch(metrics, { headers: { authorization: 'Bearer wrong-token-wrong-token-wrong-token' } })).status).toBe(401);
      const posted = await fetch(metrics, { method: 'POST', headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
      expect([posted.status, posted.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
      // A job's duration is counted when its handler returns, which is after it wrote the mail: under load the
      // first scrape can come between the two.
      await eventually(async () => {
        const scraped = await fetch(metrics, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } });
        expect(scraped.status).toBe(200);
        expect(await scraped.text()).toMatch(
          /fieldmarket_job_duration_seconds_count\{queue="mail",name="contact\.[a-z-]+",outcome="completed"\} 1/,
        );
      });
    } finally {
      if (worker && worker.child.exitCode === null) {
        worker.child.kill('SIGTERM');
        await worker.exited;
      }
      await t.close();
      if (env.REDIS_URL) await deleteRedisKeys(env.REDIS_URL, t.config.queue.prefix);
      await db.drop();
    }
  });
});
