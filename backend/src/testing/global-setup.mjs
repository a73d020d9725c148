// Loaded by jest outside its transform, so it uses the compiled backend (the test command builds first).
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../dist/infra/database/embedded-postgres.js';
import { startDatabaseDropper } from './database-dropper.mjs';
import { createTemplateDatabases } from './template-databases.mjs';
import { startPrivateRedis } from './private-redis.mjs';

/**
 * Tests need a PostgreSQL server to create their own databases on: TEST_DATABASE_URL or
 * DATABASE_URL when set (CI, developer machines), otherwise an embedded one for this run.
 * The schema is migrated once here, into template databases each test file's database is copied
 * from. The Redis variants of the queue tests need REDIS_URL: without one, a private redis-server
 * is started for this run when one is installed.
 */
export default async function globalSetup() {
  const configured = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (configured) {
    process.env.TEST_DATABASE_URL = configured;
  } else {
    const dataDir = await mkdtemp(join(tmpdir(), 'fieldmarket-test-'));
    const port = 55_000 + Math.floor(Math.random() * 4_000);
    const embedded = await startEmbeddedPostgres(dataDir, port, () => undefined);
    process.env.TEST_DATABASE_URL = embedded.url;
    globalThis.__embeddedPostgres = embedded;
  }
  globalThis.__templates = await createTemplateDatabases(process.env.TEST_DATABASE_URL);
  process.env.TEST_TEMPLATE_DATABASE = globalThis.__templates.withQueueSchema;
  process.env.TEST_TEMPLATE_DATABASE_NO_QUEUE = globalThis.__templates.withoutQueueSchema;
  globalThis.__databaseDropper = await startDatabaseDropper(process.env.TEST_DATABASE_URL);
  process.env.TEST_DROP_QUEUE = globalThis.__databaseDropper.queue;

  let redisNote = 'Redis variants ran on REDIS_URL.';
  if (!process.env.REDIS_URL) {
    globalThis.__privateRedis = await startPrivateRedis();
    if (globalThis.__privateRedis) {
      process.env.REDIS_URL = globalThis.__privateRedis.url;
      redisNote = `Redis variants ran on a private redis-server (${process.env.REDIS_URL}) started for this run.`;
    } else {
      redisNote =
        'Redis variants SKIPPED: REDIS_URL is not set and redis-server is not installed (the queue, socket, rate-limit and contact tests ran on PostgreSQL only).';
      console.warn(`\n[fieldmarket test] ${redisNote}\n`);
    }
  }
  // The test command prints the notes (*.note) in its summary.
  if (process.env.FM_TEST_NOTES_DIR) await writeFile(join(process.env.FM_TEST_NOTES_DIR, 'redis-variants.note'), redisNote);
}
