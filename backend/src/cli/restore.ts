import 'reflect-metadata';
import { ConfigError, loadConfig } from '../config/env.js';
import { TWO_FACTOR_KEY_NOTE } from '../infra/backup/manifest.js';
import { BackupError } from '../infra/backup/postgres-tools.js';
import { restoreBackup } from '../infra/backup/restore.js';

/** `./fieldmarket restore <dir>`: a backup into the configured, empty database and image store. */
const dir = process.argv[2];
if (!dir) {
  console.error('usage: ./fieldmarket restore <backup folder>');
  process.exit(2);
}
try {
  const started = Date.now();
  const { manifest, migrationsBehind } = await restoreBackup(loadConfig(), dir, (line) => console.log(line));
  const rows = Object.values(manifest.database.tables).reduce((sum, table) => sum + table.rows, 0);
  console.log(
    `Restored ${dir} (made ${manifest.createdAt}) in ${((Date.now() - started) / 1000).toFixed(1)} s: ` +
      `${Object.keys(manifest.database.tables).length} tables, ${rows} rows and ${manifest.images.count} images, all matching the manifest.`,
  );
  if (migrationsBehind > 0) {
    console.log(`The backup's schema is ${migrationsBehind} migration(s) behind this version: run ./fieldmarket migrate before starting.`);
  }
  console.log(TWO_FACTOR_KEY_NOTE);
} catch (error) {
  const known = error instanceof BackupError || error instanceof ConfigError;
  console.error(known ? (error as Error).message : `The restore failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
