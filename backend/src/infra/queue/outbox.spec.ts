import { afterEach, describe, expect, it, jest } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { deleteRedisKeys } from '../../testing/redis.js';
import { startSmtpSink, type SmtpSink } from '../../testing/smtp-sink.js';
import { eventually, startTestApp, waitForJobs, type TestApp } from '../../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../testing/test-database.js';
import { JobQueue } from './job-queue.service.js';
import { JobRegistry, OnDomainEvent, ScheduledJob } from './job-registry.js';
import { OutboxPurgeJob } from './outbox-purge.job.js';

const message = { name: 'Sam Shepherd', email: 'sam@example.co.uk', subject: 'Hay', message: 'Is the hay still for sale?' };

interface Entry {
  id: string;
  name: string;
  enqueued_at: Date | null;
  completed_at: Date | null;
}

describe('the outbox', () => {
  let db: TestDatabase | undefined;
  let apps: TestApp[] = [];
  let smtp: SmtpSink | undefined;

  const start = async (env: Record<string, string>) => {
    db ??= await createTestDatabase();
    const t = await startTestApp(db, env);
    apps.push(t);
    return t;
  };
  /** Moves every entry's hand-over a minute back, as if 60 polls of one second had passed since. */
  const ageHandOvers = () =>
    (db as TestDatabase).query(`update outbox_job set enqueued_at = enqueued_at - interval '1 minute' where enqueued_at is not null`);
  const entries = () => (db as TestDatabase).query<Entry>('select id, name, enqueued_at, completed_at from outbox_job order by name');

  afterEach(async () => {
    for (const t of apps.reverse()) await t.close();
    if (process.env.REDIS_URL) await deleteRedisKeys(process.env.REDIS_URL, apps[0]?.config.queue.prefix ?? 'none');
    apps = [];
    await smtp?.close();
    smtp = undefined;
    await db?.drop();
    db = undefined;
  });

  it('makes one more pass for work committed while a pass was handing work over', async () => {
    // The timer would only fire after 5 minutes: anything handed over was handed over by a relay pass.
    const t = await start({ OUTBOX_POLL_SECONDS: '300', WORKERS_IN_PROCESS: 'false' });
    const queue = t.app.get(JobQueue);
    const enqueue = queue.enqueue.bind(queue);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const firstPassHolding = new Promise<void>((resolve) => {
      jest.spyOn(queue, 'enqueue').mockImplementation(async (...args) => {
        resolve();
        await gate; // the first pass stalls in the queue backend...
        return enqueue(...args);
      });
    });

    const post = (ip: string) => t.app.inject({ method: 'POST', url: '/api/contact', payload: message, remoteAddress: ip });
    expect((await post('10.1.0.1')).statusCode).toBe(201);
    await firstPassHolding;
    // ...while a second message is committed; its relay request arrives during the first pass.
    expect((await post('10.1.0.2')).statusCode).toBe(201);
    release();

    await eventually(async () => {
      const all = await entries();
      expect(all).toHaveLength(4);
      for (const entry of all) expect(entry.enqueued_at).not.toBeNull();
    });
  });

  const backends: Array<{ name: string; env: Record<string, string>; wipe: (t: TestApp) => Promise<void> }> = [
    {
      name: 'PostgreSQL',
      env: {},
      wipe: async () => {
        await (db as TestDatabase).query('delete from bullmq.job');
      },
    },
  ];
  if (process.env.REDIS_URL) {
    backends.push({
      name: 'Redis',
      env: { REDIS_URL: process.env.REDIS_URL },
      wipe: (t) => deleteRedisKeys(process.env.REDIS_URL as string, t.config.queue.prefix),
    });
  }

  it.each(backends)('hands work over again when the $name queue backend lost it, and it is done once', async ({ env, wipe }) => {
    smtp = await startSmtpSink();
    const common = { ...env, OUTBOX_POLL_SECONDS: '1', SMTP_URL: smtp.url, STAFF_EMAIL: 'staff@fieldmarket.test' };
    // A web process with no workers: the jobs wait in the queue...
    const web = await start({ ...common, WORKERS_IN_PROCESS: 'false' });
    expect((await web.app.inject({ method: 'POST', url: '/api/contact', payload: message })).statusCode).toBe(201);
    await eventually(async () => expect((await entries()).every((e) => e.enqueued_at !== null)).toBe(true));
    // ...when the backend loses everything it held (a Redis restarted without persistence).
    await wipe(web);
    const jobs = web.app.get(JobQueue);
    for (const entry of await entries()) expect(await jobs.stateOf('mail', entry.id)).toBeUndefined();

    // The reconciler notices (entries handed over 12 polls ago with no job) and hands them over again.
    // The entries are made that old rather than waited for: 12 polls are 12 s of real time.
    await ageHandOvers();
    await eventually(async () => {
      for (const entry of await entries()) expect(await jobs.stateOf('mail', entry.id)).toBe('waiting');
    }, 40_000);

    // A worker then does the work, once.
    await start({ ...common, QUEUE_PREFIX: web.config.queue.prefix, WORKERS_IN_PROCESS: 'true' });
    await waitForJobs(db as TestDatabase);
    expect(smtp.received.flatMap((m) => m.to).sort()).toEqual(['sam@example.co.uk', 'staff@fieldmarket.test']);

    // A worker that crashed after sending but before recording it: the entries look undone and
    // the backend lost the jobs. The work runs again, and the handlers' own records stop a repeat.
    await (db as TestDatabase).query('update outbox_job set completed_at = null');
    await wipe(web);
    await ageHandOvers();
    await waitForJobs(db as TestDatabase, 40_000);
    expect(smtp.received).toHaveLength(2);
  });

  it('lets running jobs finish and records them before the database closes', async () => {
    smtp = await startSmtpSink({ replyDelayMs: 1_500 });
    const t = await start({ OUTBOX_POLL_SECONDS: '300', SMTP_URL: smtp.url, STAFF_EMAIL: 'staff@fieldmarket.test' });
    expect((await t.app.inject({ method: 'POST', url: '/api/contact', payload: message })).statusCode).toBe(201);
    await eventually(() => expect(smtp?.connections).toBeGreaterThan(0)); // a send is under way
    await t.close();
    apps = [];
    const all = await entries();
    expect(all.map((e) => e.completed_at !== null)).toEqual([true, true]);
    expect(smtp.received).toHaveLength(2);
  });

  it('purges entries done more than seven days ago, and nothing else', async () => {
    const t = await start({ WORKERS_IN_PROCESS: 'false' });
    const d = db as TestDatabase;
    const insert = (name: string, completedDaysAgo: number | null, createdDaysAgo: number) =>
      d.query(
        `insert into outbox_job (id, name, queue, payload, created_at, completed_at, attempts)
         values (gen_random_uuid(), $1, 'mail', '{}', now() - make_interval(days => $3),
                 case when $2::int is null then null else now() - make_interval(days => $2::int) end, 0)`,
        [name, completedDaysAgo, createdDaysAgo],
      );
    await insert('done-long-ago', 8, 9);
    await insert('done-recently', 6, 9);
    await insert('never-done', null, 30);
    await t.app.get(OutboxPurgeJob).purge();
    expect((await d.query<{ name: string }>('select name from outbox_job order by name')).map((r) => r.name)).toEqual([
      'done-recently',
      'never-done',
    ]);
  });

  it('schedules the purge once in the queue backend', async () => {
    const t = await start({});
    await eventually(async () => {
      const names = (await t.app.get(JobQueue).schedulers('maintenance')).map((s) => s.name);
      // Other modules schedule their own periodic jobs on this queue too; each appears once.
      expect(names.filter((name) => name === 'outbox.purge')).toHaveLength(1);
      expect(new Set(names).size).toBe(names.length);
    });
  });
});

describe('the job registry', () => {
  @Injectable()
  class MailOne {
    @OnDomainEvent('contact.received', { name: 'contact.same-name', queue: 'mail' })
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  @Injectable()
  class MailTwo {
    @ScheduledJob({ name: 'contact.same-name', queue: 'maintenance', everyMs: 60_000 })
    handle(): Promise<void> {
      return Promise.resolve();
    }
  }
  @Module({ imports: [DiscoveryModule], providers: [JobRegistry, MailOne, MailTwo] })
  class TwoJobsOneName {}

  it('refuses to start when two jobs share a name', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [TwoJobsOneName] }).compile();
    await expect(moduleRef.init()).rejects.toThrow('Job name "contact.same-name" is declared twice; job names must be unique');
  });

  it('finds the application’s subscribers of an event', async () => {
    const db = await createTestDatabase();
    const t = await startTestApp(db, { WORKERS_IN_PROCESS: 'false' });
    try {
      const names = t.app
        .get(JobRegistry)
        .subscribersOf('contact.received')
        .map((s) => `${s.name} on ${s.queue}`);
      expect(names.sort()).toEqual(['contact.acknowledge-sender on mail', 'contact.notify-staff on mail']);
    } finally {
      await t.close();
      await db.drop();
    }
  });
});
