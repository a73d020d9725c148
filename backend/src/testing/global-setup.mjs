// Loaded by jest outside its transform, so it uses the compiled backend (the test command builds first).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedPostgres } from '../../dist/infra/database/embedded-postgres.js';

/**
 * Tests need a PostgreSQL server to create their own databases on: TEST_DATABASE_URL or
 * DATABASE_URL when set (CI, developer machines), otherwise an embedded one for this run.
 */
export default async function globalSetup() {
  const configured = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (configured) {
    process.env.TEST_DATABASE_URL = configured;
    return;
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmarket-test-'));
  const port = 55_000 + Math.floor(Math.random() * 4_000);
  const embedded = await startEmbeddedPostgres(dataDir, port, () => undefined);
  process.env.TEST_DATABASE_URL = embedded.url;
  globalThis.__embeddedPostgres = embedded;
}
