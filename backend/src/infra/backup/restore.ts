import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, extname, join } from 'node:path';
import pg from 'pg';
import type { AppConfig } from '../../config/env.js';
import { openCommandDatabase } from '../database/command-database.js';
import { createObjectStorage } from '../storage/object-storage.js';
import { fileSha256, serverMajor } from './files.js';
import { type BackupManifest, checkSchemaKnown, IMAGES_DIR, MANIFEST_FILE, summariseTables, tableDifferences } from './manifest.js';
import { BackupError, findPostgresTool, type PostgresTool, runPostgresTool } from './postgres-tools.js';

const CONTENT_TYPES: Record<string, string> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
};

export interface RestoreResult {
  manifest: BackupManifest;
  /** Migrations this code has past the backup's schema (`./fieldmarket migrate` applies them). */
  migrationsBehind: number;
}

/**
 * `./fieldmarket restore <dir>`: a backup into an empty database and an empty image store. The
 * backup's files are checked against its manifest first, and the restored tables' counts and
 * checksums after; any difference fails the command.
 */
export async function restoreBackup(config: AppConfig, dir: string, log: (line: string) => void): Promise<RestoreResult> {
  const manifest = await readManifest(dir);
  const { behind } = checkSchemaKnown(manifest.schemaVersion);
  const dumpFile = join(dir, manifest.database.file);
  if ((await fileSha256(dumpFile).catch(() => undefined)) !== manifest.database.sha256) {
    throw new BackupError(`${dumpFile} is missing or does not match its checksum in the manifest: the backup is damaged.`);
  }
  for (const image of manifest.images.files) {
    const file = join(dir, IMAGES_DIR, ...image.key.split('/'));
    if ((await fileSha256(file).catch(() => undefined)) !== image.sha256) {
      throw new BackupError(`${file} is missing or does not match its checksum in the manifest: the backup is damaged.`);
    }
  }

  const restoreWorkDir = await mkdtemp(join(tmpdir(), 'fieldmarket-restore-'));
  const database = await openCommandDatabase(config, log);
  const storage = await createObjectStorage(config.storage);
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    const { rows: tables } = await client.query<{ name: string }>(
      `select schemaname || '.' || tablename as name from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
    );
    if (tables.length > 0) {
      throw new BackupError(
        `The target database is not empty (${tables.length} tables, such as ${tables[0].name}): restore only into an empty database. ` +
          'Create a new one (createdb) and point DATABASE_URL at it, or use a new DATA_DIR for the embedded database.',
      );
    }
    for await (const key of storage.list()) {
      throw new BackupError(
        `The image store is not empty (it holds ${key}, among others): restore only into an empty ` +
          (storage.kind === 's3' ? 'bucket (S3_BUCKET).' : `folder (UPLOADS_DIR, now ${config.storage.uploadsDir}).`),
      );
    }
    const server = await serverMajor(client);
    const dumpedWith = Number(/\(PostgreSQL\)\s+(\d+)/.exec(manifest.postgres.dumpedWith)?.[1] ?? 0);
    const pgRestore = await findPostgresTool('pg_restore', Math.max(server.major, dumpedWith));
    log(`restoring the database (schema ${manifest.schemaVersion}) with ${pgRestore.path} (${pgRestore.version})`);
    await restoreDump(pgRestore, database.url, dumpFile, join(restoreWorkDir, 'post-data.sql'));
    log(`restoring ${manifest.images.count} images`);
    for (const image of manifest.images.files) {
      const body = await readFile(join(dir, IMAGES_DIR, ...image.key.split('/')));
      await storage.put(image.key, body, CONTENT_TYPES[extname(image.key).toLowerCase()] ?? 'application/octet-stream');
    }
    log('checking the restored tables against the manifest');
    await client.query('begin');
    const restored = await summariseTables(client);
    await client.query('commit');
    const differences = tableDifferences(manifest.database.tables, restored);
    if (differences.length > 0) throw new BackupError(`The restored database differs from the backup:\n  ${differences.join('\n  ')}`);
    // Fresh statistics: the planner would otherwise guess at every table until autovacuum came round.
    await client.query('analyze');
    return { manifest, migrationsBehind: behind };
  } finally {
    await rm(restoreWorkDir, { recursive: true, force: true });
    await client.end().catch(() => undefined);
    (storage as { close?: () => void }).close?.();
    await database.release();
  }
}

/**
 * The tables, functions and rows in one transaction (pg_restore), then the indexes, constraints and
 * triggers in a second (psql). The second runs with the schema on its search path: pg_restore empties
 * it, and earthdistance's ll_to_earth (which the listing location index calls) names its type
 * `earth` unqualified, so with pg_restore alone that index cannot be built.
 */
async function restoreDump(pgRestore: PostgresTool, url: string, dumpFile: string, postDataFile: string): Promise<void> {
  const common = ['--no-owner', '--no-privileges', '--exit-on-error'];
  await runPostgresTool(pgRestore, url, [...common, '--single-transaction', '--section=pre-data', '--section=data', dumpFile]);
  await runPostgresTool(pgRestore, undefined, [...common, '--section=post-data', `--file=${postDataFile}`, dumpFile]);
  const sql = await readFile(postDataFile, 'utf8');
  const emptied = "SELECT pg_catalog.set_config('search_path', '', false);";
  if (!sql.includes(emptied)) throw new BackupError(`${pgRestore.path} wrote post-data SQL this version does not recognise.`);
  await writeFile(postDataFile, sql.replace(emptied, "SELECT pg_catalog.set_config('search_path', 'public, pg_catalog', false);"));
  const psql = await findPostgresTool('psql', pgRestore.major, dirname(pgRestore.path));
  await runPostgresTool(psql, url, ['--no-psqlrc', '--quiet', '--set=ON_ERROR_STOP=1', '--single-transaction', `--file=${postDataFile}`]);
}

async function readManifest(dir: string): Promise<BackupManifest> {
  const text = await readFile(join(dir, MANIFEST_FILE), 'utf8').catch(() => undefined);
  if (text === undefined) throw new BackupError(`No ${MANIFEST_FILE} in ${dir}: not a Fieldmarket backup (or not all of one).`);
  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(text) as BackupManifest;
  } catch {
    throw new BackupError(`${join(dir, MANIFEST_FILE)} is not valid JSON: the backup is damaged.`);
  }
  if (manifest.format !== 'fieldmarket-backup' || manifest.formatVersion !== 1) {
    throw new BackupError(`${join(dir, MANIFEST_FILE)} is not a Fieldmarket backup manifest this version can read.`);
  }
  return manifest;
}
