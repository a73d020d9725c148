import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import type { AppConfig } from '../../config/env.js';
import { openCommandDatabase } from '../database/command-database.js';
import { createObjectStorage, type ObjectStorage } from '../storage/object-storage.js';
import {
  type BackupManifest,
  DATABASE_FILE,
  type ImageFile,
  IMAGES_DIR,
  MANIFEST_FILE,
  schemaVersionOf,
  summariseTables,
  TWO_FACTOR_KEY_NOTE,
} from './manifest.js';
import { BackupError, findPostgresTool, runPostgresTool } from './postgres-tools.js';
import { fileSha256, serverMajor } from './files.js';

/**
 * `./fieldmarket backup <dir>`: the database as pg_dump's custom format, every image, and a
 * manifest. The dump, the row counts and checksums all read one exported snapshot, so they agree
 * with each other whatever is written meanwhile; images are copied after the snapshot is taken, so
 * every image the dump refers to is there (an image stored later is copied too, harmlessly).
 */
export async function createBackup(config: AppConfig, dir: string, log: (line: string) => void): Promise<BackupManifest> {
  const existing = await readdir(dir).catch(() => [] as string[]);
  if (existing.length > 0) throw new BackupError(`${dir} is not empty: give a new folder for each backup.`);
  await mkdir(join(dir, IMAGES_DIR), { recursive: true });
  const database = await openCommandDatabase(config, log);
  const storage = await createObjectStorage(config.storage);
  const client = new pg.Client({ connectionString: database.url });
  try {
    await client.connect();
    const server = await serverMajor(client);
    const pgDump = await findPostgresTool('pg_dump', server.major);
    await client.query('begin transaction isolation level repeatable read read only');
    const [{ snapshot }] = (await client.query<{ snapshot: string }>('select pg_export_snapshot() as snapshot')).rows;
    const schemaVersion = await schemaVersionOf(client);
    log(`dumping the database (schema ${schemaVersion}) with ${pgDump.path} (${pgDump.version})`);
    const dumpFile = join(dir, DATABASE_FILE);
    // The dump and the summary read the same snapshot; the transaction exporting it stays open until both are done.
    const [, tables] = await Promise.all([
      runPostgresTool(pgDump, database.url, ['--format=custom', `--snapshot=${snapshot}`, `--file=${dumpFile}`]),
      summariseTables(client),
    ]);
    await client.query('commit');
    log('copying images');
    const images = await copyImages(storage, join(dir, IMAGES_DIR));
    const manifest: BackupManifest = {
      format: 'fieldmarket-backup',
      formatVersion: 1,
      createdAt: new Date().toISOString(),
      schemaVersion,
      postgres: { serverVersion: server.version, dumpedWith: pgDump.version },
      database: { file: DATABASE_FILE, bytes: (await stat(dumpFile)).size, sha256: await fileSha256(dumpFile), tables },
      images: {
        storage: storage.kind,
        count: images.length,
        bytes: images.reduce((sum, image) => sum + image.bytes, 0),
        files: images,
      },
      twoFactorKey: TWO_FACTOR_KEY_NOTE,
    };
    await writeFile(join(dir, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    await client.end().catch(() => undefined);
    (storage as { close?: () => void }).close?.();
    await database.release();
  }
}

/** Every stored image copied into `dir` under its key, with its size and checksum. */
async function copyImages(storage: ObjectStorage, dir: string): Promise<ImageFile[]> {
  const files: ImageFile[] = [];
  for await (const key of storage.list()) {
    const target = join(dir, ...key.split('/'));
    await mkdir(dirname(target), { recursive: true });
    const hash = createHash('sha256');
    let bytes = 0;
    const measure = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    await pipeline(await storage.get(key), measure, createWriteStream(target));
    files.push({ key, bytes, sha256: hash.digest('hex') });
  }
  return files.sort((a, b) => (a.key < b.key ? -1 : 1));
}
