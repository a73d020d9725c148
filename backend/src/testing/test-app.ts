import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createWebApp } from '../bootstrap/web-app.js';
import { type AppConfig, loadConfig } from '../config/env.js';
import type { Clock } from '../infra/clock/clock.js';
import type { TestDatabase } from './test-database.js';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  close(): Promise<void>;
}

/** Builds the test environment: own data folder, own queue prefix, no frontend, quiet logs. */
export async function testConfig(db: TestDatabase, env: Record<string, string | undefined> = {}): Promise<AppConfig> {
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmarket-app-'));
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.FM_TEST_LOG_LEVEL ?? 'error',
    DATABASE_URL: db.url,
    DATA_DIR: dataDir,
    FRONTEND_DIR: 'none',
    QUEUE_PREFIX: `fmtest_${randomBytes(4).toString('hex')}`,
    // Never the public postcode service: a test that looks postcodes up starts a FakePostcodes (testing/postcodes.ts).
    POSTCODES_API_URL: 'http://127.0.0.1:9',
    ...env,
  });
}

/** The web application as production builds it, not listening (use app.inject) unless `listen`. */
export async function startTestApp(
  db: TestDatabase,
  env: Record<string, string | undefined> = {},
  options: { clock?: Clock } = {},
): Promise<TestApp> {
  const config = await testConfig(db, env);
  const app = await createWebApp(config, db.url, options.clock);
  return { app, config, close: () => app.close() };
}

/**
 * Waits until `check` passes (returns without throwing). Retries soon at first (most conditions hold
 * within a few milliseconds: a job handed over, a mail written), then every 100 ms.
 */
export async function eventually<T>(check: () => Promise<T> | T, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}

/** Resolves when every outbox entry's work is done (or has failed for good). */
export async function waitForJobs(db: TestDatabase, timeoutMs?: number): Promise<void> {
  await eventually(async () => {
    const [{ pending }] = await db.query<{ pending: string }>(
      'select count(*) as pending from outbox_job where completed_at is null and failed_at is null',
    );
    if (Number(pending) > 0) throw new Error(`${pending} outbox entries not done`);
  }, timeoutMs);
}

export interface OutboxMail {
  messageId: string;
  to: string;
  subject: string;
  text: string;
  replyTo?: string;
}

/**
 * Mails already read, per outbox folder and file. The mail service writes each file whole (under a temporary
 * name, then renamed) and never changes it, so a file is read once: tests poll the outbox many times, and a
 * file of the suite collects hundreds of mails.
 */
const outboxFilesRead = new Map<string, Map<string, OutboxMail>>();

/** The messages in the local mail outbox, oldest first. */
export async function readOutbox(dir: string): Promise<OutboxMail[]> {
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.json')).sort();
  let read = outboxFilesRead.get(dir);
  if (!read) outboxFilesRead.set(dir, (read = new Map()));
  const known = read;
  return Promise.all(
    files.map(async (f) => {
      let mail = known.get(f);
      if (!mail) known.set(f, (mail = JSON.parse(await readFile(join(dir, f), 'utf8')) as OutboxMail));
      return mail;
    }),
  );
}
