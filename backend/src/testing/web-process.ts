import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import type { TestDatabase } from './test-database.js';

// The built web process, as `./fieldmarket start` runs it (the test command builds first).
const webEntry = fileURLToPath(new URL('../../dist/main.js', import.meta.url));

export interface WebProcess {
  origin: string;
  /** Everything the process has written to stdout so far, line by line. */
  stdout(): string[];
  /** Sends SIGTERM and resolves with the exit code once the process has gone. */
  stop(): Promise<number | null>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Runs the built web process on the test database (already migrated), with stdout piped as a
 * log collector would read it, and resolves once it serves requests.
 */
export async function startWebProcess(db: TestDatabase, env: Record<string, string>): Promise<WebProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(join(tmpdir(), 'fieldmarket-web-'));
  const child = spawn(process.execPath, [webEntry], {
    env: {
      PATH: process.env.PATH,
      DATABASE_URL: db.url,
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      FRONTEND_DIR: 'none',
      QUEUE_PREFIX: `fmtest_${randomBytes(4).toString('hex')}`,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the web process exited with ${child.exitCode}:\n${out}${err}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the web process did not answer within 30 s:\n${out}${err}`);
    }
    try {
      // OPTIONS: a probe that answers without touching the database and logs only at debug.
      if ((await fetch(`${origin}/api/health`, { method: 'OPTIONS' })).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    origin,
    stdout: () => out.split('\n').filter(Boolean),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      const code = await exited;
      await rm(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}
