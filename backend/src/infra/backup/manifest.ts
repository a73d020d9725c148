import type pg from 'pg';
import { MIGRATIONS } from '../../migrations/index.js';
import { BackupError } from './postgres-tools.js';

export const MANIFEST_FILE = 'manifest.json';
export const DATABASE_FILE = 'database.dump';
export const IMAGES_DIR = 'images';

/** What a backup holds, written beside it and checked on restore. */
export interface BackupManifest {
  format: 'fieldmarket-backup';
  formatVersion: 1;
  createdAt: string;
  /** The last migration applied to the database when it was dumped. */
  schemaVersion: string;
  postgres: { serverVersion: string; dumpedWith: string };
  database: { file: string; bytes: number; sha256: string; tables: Record<string, TableSummary> };
  images: { storage: 'disk' | 's3'; count: number; bytes: number; files: ImageFile[] };
  twoFactorKey: string;
}

/** A table's rows: how many, and an order-free checksum of their contents (sum of each row's hash). */
export interface TableSummary {
  rows: number;
  checksum: string;
}

export interface ImageFile {
  key: string;
  bytes: number;
  sha256: string;
}

export const TWO_FACTOR_KEY_NOTE =
  'The two-factor key is not in this backup, by design: keep TWO_FACTOR_KEY (or the file two-factor.key in DATA_DIR when the variable is unset) ' +
  'somewhere else, such as a password manager. A restored database needs the same key, or no one with two-factor sign-in can sign in.';

/**
 * Every table's row count and checksum, read by `client` (inside the backup's snapshot, or after a
 * restore). Times and numbers are written in one fixed way so both sides hash the same text.
 */
export async function summariseTables(client: pg.ClientBase): Promise<Record<string, TableSummary>> {
  await client.query(`set local timezone = 'UTC'; set local datestyle = 'ISO, YMD'; set local extra_float_digits = 1`);
  const { rows: tables } = await client.query<{ name: string; quoted: string }>(
    `select schemaname || '.' || tablename as name, quote_ident(schemaname) || '.' || quote_ident(tablename) as quoted
       from pg_tables where schemaname not in ('pg_catalog', 'information_schema') order by 1`,
  );
  const summary: Record<string, TableSummary> = {};
  for (const table of tables) {
    const [row] = (
      await client.query<{ rows: string; checksum: string }>(
        `select count(*) as rows, coalesce(sum(hashtextextended(t::text, 0)), 0)::text as checksum from ${table.quoted} t`,
      )
    ).rows;
    summary[table.name] = { rows: Number(row.rows), checksum: row.checksum };
  }
  return summary;
}

/** The last migration applied to the database `client` reads. */
export async function schemaVersionOf(client: pg.ClientBase): Promise<string> {
  const found = await client
    .query<{ name: string }>(`select name from mikro_orm_migrations order by name desc limit 1`)
    .catch(() => undefined);
  const name = found?.rows[0]?.name;
  if (!name) throw new BackupError('The database has no applied migrations: there is nothing of Fieldmarket in it to back up.');
  return name;
}

/** Refuses a backup whose schema this code does not know (a newer release's, or another branch's). */
export function checkSchemaKnown(schemaVersion: string): { behind: number } {
  const names = MIGRATIONS.map((migration) => migration.name);
  const index = names.indexOf(schemaVersion);
  if (index === -1) {
    const newest = names.at(-1);
    const newer = schemaVersion > (newest ?? '');
    throw new BackupError(
      newer
        ? `This backup's database schema (${schemaVersion}) is newer than this version of Fieldmarket (its last migration is ${newest}): ` +
            'restore it with the release that made it, or a newer one.'
        : `This backup's database schema (${schemaVersion}) is not one this version of Fieldmarket knows: restore it with the release that made it.`,
    );
  }
  return { behind: names.length - 1 - index };
}

/** Differences between the tables a manifest lists and those restored, one line each. */
export function tableDifferences(expected: Record<string, TableSummary>, actual: Record<string, TableSummary>): string[] {
  const names = [...new Set([...Object.keys(expected), ...Object.keys(actual)])].sort();
  return names.flatMap((name) => {
    const want = expected[name];
    const got = actual[name];
    if (!got) return [`${name}: missing after the restore`];
    if (!want) return [`${name}: not in the backup`];
    if (want.rows !== got.rows) return [`${name}: ${want.rows} rows in the backup, ${got.rows} restored`];
    if (want.checksum !== got.checksum) return [`${name}: same row count (${got.rows}) but different contents`];
    return [];
  });
}
