// Loaded by jest's globalSetup outside its transform (plain JavaScript, no backend imports).
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

const EVERY_MS = 500;

/**
 * Drops the test files' databases in jest's main process, beside the run. DROP DATABASE makes PostgreSQL
 * write out every dirty page of the server (an immediate checkpoint): 0.7-3 s while other test files write,
 * which each file used to wait for at its end. A file now checks its connections are closed and leaves the
 * database's name in `queue` (an empty file, test-database.ts); this process drops them one at a time, and the rest when the run ends.
 */
export async function startDatabaseDropper(serverUrl) {
  const queue = await mkdtemp(join(tmpdir(), 'fieldmarket-test-drops-'));
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  let pass = Promise.resolve();
  const dropQueued = async () => {
    const names = await readdir(queue);
    if (names.length === 0) return;
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      for (const name of names) {
        // Names are written by test-database.ts; anything else in the folder is not ours to drop.
        if (/^fm_test_[0-9a-f]+$/.test(name)) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await rm(join(queue, name), { force: true });
      }
    } finally {
      await client.end();
    }
  };
  // One pass at a time: the next is planned when this one has ended, so slow drops never pile passes up.
  let timer;
  let stopped = false;
  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = dropQueued()
        .catch((error) => console.error('[test databases] could not drop:', error))
        .then(next);
    }, EVERY_MS);
  };
  next();
  return {
    queue,
    /** Stops the passes and drops what is left (every file has ended). */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
      await dropQueued();
      await rm(queue, { recursive: true, force: true });
    },
  };
}
