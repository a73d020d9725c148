import { describe, expect, it } from '@jest/globals';
import { createTestDatabase } from './testing/test-database.js';
import { deleteRedisKeys } from './testing/redis.js';
import { JobQueue } from './infra/queue/job-queue.service.js';
import { BUILT, spawnBuilt, type RunningProcess } from './testing/processes.js';
import { eventually, readOutbox, startTestApp } from './testing/test-app.js';

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

      worker = spawnBuilt(BUILT.worker, {
        ...env,
        DATABASE_URL: db.url,
        QUEUE_PREFIX: t.config.queue.prefix,
        MAIL_OUTBOX_DIR: t.config.mail.outboxDir,
        LOG_LEVEL: 'warn',
        NODE_ENV: 'test',
      });
      const mails = await eventually(async () => {
        const all = await readOutbox(t.config.mail.outboxDir);
        if (all.length < 2) throw new Error(`${all.length} mails so far`);
        return all;
      }, 30_000);
      expect(mails.map((m) => m.to).sort()).toEqual(['sam@example.co.uk', t.config.mail.staffAddress].sort());
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
