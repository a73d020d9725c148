import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/env.js';
import { createBackup } from '../infra/backup/backup.js';
import { BackupError } from '../infra/backup/postgres-tools.js';

/**
 * `./fieldmarket backup <dir>`: a consistent snapshot of the database and the images of the
 * configured deployment (DATABASE_URL or the embedded database, S3_BUCKET or UPLOADS_DIR).
 */
const dir = process.argv[2];
if (!dir) {
  console.error('usage: ./fieldmarket backup <new folder>');
  process.exit(2);
}
try {
  const started = Date.now();
  const manifest = await createBackup(loadConfig(), dir, (line) => console.log(line));
  const rows = Object.values(manifest.database.tables).reduce((sum, table) => sum + table.rows, 0);
  console.log(
    `Backup written to ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s: database ${mebibytes(manifest.database.bytes)} ` +
      `(${Object.keys(manifest.database.tables).length} tables, ${rows} rows, schema ${manifest.schemaVersion}), ` +
      `${manifest.images.count} images ${mebibytes(manifest.images.bytes)}.`,
  );
  console.log(manifest.twoFactorKey);
} catch (error) {
  const known = error instanceof BackupError || error instanceof ConfigError;
  console.error(known ? (error as Error).message : `The backup failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
