import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { BUILT, freePort, spawnBuilt, waitUntilServing } from './processes.js';
import type { TestDatabase } from './test-database.js';

export interface WebProcess {
  origin: string;
  /** Everything the process has written to stdout so far, line by line. */
  stdout(): string[];
  /** Sends SIGTERM and resolves with the exit code once the process has gone. */
  stop(): Promise<number | null>;
}

/**
 * Runs the built web process on the test database (already migrated), with stdout piped as a
 * log collector would read it, and resolves once it serves requests.
 */
export async function startWebProcess(db: TestDatabase, env: Record<string, string>): Promise<WebProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmarket-web-'));
  const running = spawnBuilt(BUILT.web, {
    DATABASE_URL: db.url,
    HOST: '127.0.0.1',
    PORT: String(port),
    DATA_DIR: dataDir,
    FRONTEND_DIR: 'none',
    QUEUE_PREFIX: `fmtest_${randomBytes(4).toString('hex')}`,
    ...env,
  });
  const origin = `http://127.0.0.1:${port}`;
  // OPTIONS: a probe that answers without touching the database and logs only at debug.
  await waitUntilServing(running, `${origin}/api/health`, { method: 'OPTIONS', status: 204 });
  return {
    origin,
    stdout: () => running.stdout().split('\n').filter(Boolean),
    stop: async () => {
      if (running.child.exitCode === null) running.child.kill('SIGTERM');
      const code = await running.exited;
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
