import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { findPostgresTool } from '../infra/backup/postgres-tools.js';
import { freePort } from './processes.js';

const run = promisify(execFile);

/** The newest Debian PostgreSQL with what a primary and a streaming replica need, or undefined. */
export function debianPostgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => /^\d+$/.test(name))
    .sort((a, b) => Number(b) - Number(a));
  return versions
    .map((version) => join(root, version, 'bin'))
    .find((bin) => ['initdb', 'pg_ctl', 'pg_basebackup'].every((tool) => existsSync(join(bin, tool))));
}

export interface LocalPostgres {
  /** The server's `postgres` database, as its superuser (no password: trust on loopback). */
  adminUrl: string;
  /** Stops the server at once and removes its folder. */
  stop(): Promise<void>;
}

/** Runs a Debian PostgreSQL tool, as the `postgres` user when we are root (PostgreSQL refuses root). */
async function toolRunner(bin: string, root: string) {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const postgresIds = await idsOf('postgres');
    await chown(root, postgresIds.uid, postgresIds.gid);
    await chmod(root, 0o755);
  }
  return (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args]) : run(join(bin, name), args);
}

/** initdb in `dir`, with `settings` added to its postgresql.conf, and started (pg_ctl -w). */
async function initAndStart(
  tool: (name: string, args: string[]) => Promise<unknown>,
  root: string,
  dir: string,
  port: number,
  settings: string[] = [],
): Promise<void> {
  await tool('initdb', ['-D', dir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  await appendFile(
    join(dir, 'postgresql.conf'),
    [`port = ${port}`, `listen_addresses = '127.0.0.1'`, `unix_socket_directories = '${root}'`, 'fsync = off', ...settings, ''].join('\n'),
  );
  await tool('pg_ctl', ['-D', dir, '-l', `${dir}.log`, '-w', 'start']);
}

/**
 * A PostgreSQL server of the machine's Debian packages (`bin`) in a folder of its own under the
 * temp dir, on `port`: for a test that needs the server's major version to match the machine's
 * client tools (pg_dump refuses a server newer than itself, and the embedded server is newer).
 */
export async function startLocalPostgres(bin: string, port: number): Promise<LocalPostgres> {
  const root = await mkdtemp(join(tmpdir(), 'fieldmarket-pg-'));
  const tool = await toolRunner(bin, root);
  const dir = join(root, 'server');
  const stop = async () => {
    await tool('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await initAndStart(tool, root, dir, port, ['max_connections = 40']);
  } catch (error) {
    await stop();
    throw error;
  }
  return { adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, stop };
}

/**
 * The PostgreSQL server a test of pg_dump and pg_restore runs on: the run's (TEST_DATABASE_URL)
 * when the machine's newest pg_dump is at least as new, else (the embedded server is newer than
 * Debian's client tools, which rightly refuse it) a Debian server of the tools' own version started
 * for the test. `note` says which, for the test command's output (FM_TEST_NOTES_DIR).
 */
export async function serverForClientTools(spec: string): Promise<{ serverUrl: string; note: string; stop(): Promise<void> }> {
  const runServer = process.env.TEST_DATABASE_URL;
  if (!runServer) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (globalSetup)');
  const client = new pg.Client({ connectionString: runServer });
  await client.connect();
  const serverMajor = await client
    .query<{ v: string }>("select current_setting('server_version_num') as v")
    .then(({ rows }) => Math.floor(Number(rows[0].v) / 10_000))
    .finally(() => client.end());
  const pgDump = await findPostgresTool('pg_dump', 0).catch(() => undefined);
  const bin = debianPostgresBin();
  let chosen: { serverUrl: string; note: string; stop(): Promise<void> };
  if (!pgDump || pgDump.major >= serverMajor || !bin) {
    chosen = {
      serverUrl: runServer,
      note: `${spec} ran on the test server (PostgreSQL ${serverMajor}, pg_dump ${pgDump?.major ?? 'not found'}).`,
      stop: async () => undefined,
    };
  } else {
    const local = await startLocalPostgres(bin, await freePort());
    chosen = {
      serverUrl: local.adminUrl,
      note:
        `${spec} ran on a Debian PostgreSQL started for it (${bin}): the test server is PostgreSQL ${serverMajor} ` +
        `and the machine's newest pg_dump is ${pgDump.major}, which refuses a newer server.`,
      stop: local.stop,
    };
  }
  if (process.env.FM_TEST_NOTES_DIR) await writeFile(join(process.env.FM_TEST_NOTES_DIR, `${spec}.note`), chosen.note);
  return chosen;
}

export interface PrimaryWithReplica {
  /** URL of a database on the primary (`fieldmarket`, created empty). */
  primaryUrl: string;
  /** The same database on the streaming replica. */
  replicaUrl: string;
  /** Stops the replica at once (as a crash would), keeping its folder; `startReplica` brings it back. */
  stopReplica(): Promise<void>;
  startReplica(): Promise<void>;
  /** Stops both servers and removes their folders. */
  stop(): Promise<void>;
}

/**
 * A PostgreSQL primary (wal_level=replica) and a streaming replica made from it with
 * `pg_basebackup -R`, each in a folder of its own under the temp dir, on the given ports. As root,
 * the servers run as the `postgres` user (PostgreSQL refuses root).
 */
export async function startPrimaryWithReplica(bin: string, ports: { primary: number; replica: number }): Promise<PrimaryWithReplica> {
  const root = await mkdtemp(join(tmpdir(), 'fieldmarket-pg-'));
  const tool = await toolRunner(bin, root);
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const started: string[] = [];
  const stop = async () => {
    for (const dir of started.reverse()) await tool('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await initAndStart(tool, root, primaryDir, ports.primary, ['wal_level = replica', 'max_wal_senders = 5', 'max_connections = 40']);
    started.push(primaryDir);
    const primaryAdmin = `postgres://postgres@127.0.0.1:${ports.primary}/postgres`;
    const client = new pg.Client({ connectionString: primaryAdmin });
    await client.connect();
    await client.query('create database fieldmarket').finally(() => client.end());
    await tool('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(ports.primary),
      '-U',
      'postgres',
      '-D',
      replicaDir,
      '-R',
      '-X',
      'stream',
      '--checkpoint=fast',
    ]);
    await appendFile(join(replicaDir, 'postgresql.conf'), `port = ${ports.replica}\n`);
    const startReplica = async () => {
      await tool('pg_ctl', ['-D', replicaDir, '-l', join(root, 'replica.log'), '-w', 'start']);
    };
    await startReplica();
    started.push(replicaDir);
    return {
      primaryUrl: `postgres://postgres@127.0.0.1:${ports.primary}/fieldmarket`,
      replicaUrl: `postgres://postgres@127.0.0.1:${ports.replica}/fieldmarket`,
      stopReplica: async () => {
        await tool('pg_ctl', ['-D', replicaDir, '-m', 'immediate', '-w', 'stop']);
      },
      startReplica,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function idsOf(user: string): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([run('id', ['-u', user]), run('id', ['-g', user])]);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}
