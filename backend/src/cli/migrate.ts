import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { DependencyUnavailableError, probePostgres, waitFor } from '../bootstrap/dependencies.js';
import { createLogger } from '../bootstrap/logger.js';
import { ConfigError, loadConfig } from '../config/env.js';
import { migrateDatabase } from '../infra/database/migrate.js';

/** `./fieldmarket migrate`: applies migrations to DATABASE_URL (the deploy step). */
try {
  const config = loadConfig();
  Logger.overrideLogger(createLogger(config));
  const url = config.database.url;
  if (!url) throw new ConfigError('DATABASE_URL is not set; the embedded database is migrated by ./fieldmarket start.');
  await waitFor(
    { name: 'PostgreSQL', variable: 'DATABASE_URL', url },
    () => probePostgres(url),
    new Logger('Migrate'),
    config.startupWaitSeconds * 1000,
  );
  const applied = await migrateDatabase(url, { queueSchema: !config.queue.redisUrl });
  console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Nothing to apply; the schema is up to date.');
} catch (error) {
  const known = error instanceof ConfigError || error instanceof DependencyUnavailableError;
  console.error(known ? (error as Error).message : `Migration failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
