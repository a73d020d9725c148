import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { appendFile, chmod, chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';

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
  const asRoot = process.getuid?.() === 0;
  const postgresIds = asRoot ? await idsOf('postgres') : undefined;
  if (postgresIds) {
    await chown(root, postgresIds.uid, postgresIds.gid);
    await chmod(root, 0o755);
  }
  const tool = (name: string, args: string[]) =>
    asRoot ? run('runuser', ['-u', 'postgres', '--', join(bin, name), ...args]) : run(join(bin, name), args);
  const primaryDir = join(root, 'primary');
  const replicaDir = join(root, 'replica');
  const started: string[] = [];
  const stop = async () => {
    for (const dir of started.reverse()) await tool('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
    await rm(root, { recursive: true, force: true });
  };
  try {
    await tool('initdb', ['-D', primaryDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
    await appendFile(
      join(primaryDir, 'postgresql.conf'),
      [
        `port = ${ports.primary}`,
        `listen_addresses = '127.0.0.1'`,
        `unix_socket_directories = '${root}'`,
        'wal_level = replica',
        'max_wal_senders = 5',
        'fsync = off',
        'max_connections = 40',
        '',
      ].join('\n'),
    );
    await tool('pg_ctl', ['-D', primaryDir, '-l', join(root, 'primary.log'), '-w', 'start']);
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
