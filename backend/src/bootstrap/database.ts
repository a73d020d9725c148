import type { Logger } from '@nestjs/common';
import type { AppConfig } from '../config/env.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../infra/database/embedded-postgres.js';
import { migrateDatabase } from '../infra/database/migrate.js';

export interface Database {
  url: string;
  embedded: EmbeddedDatabase | undefined;
}

/** The configured PostgreSQL, or an embedded one under DATA_DIR; migrated when MIGRATE_ON_START. */
export async function prepareDatabase(config: AppConfig, logger: Logger): Promise<Database> {
  let embedded: EmbeddedDatabase | undefined;
  let url = config.database.url;
  if (!url) {
    const started = Date.now();
    embedded = await startEmbeddedPostgres(config.dataDir, config.database.embeddedPort, (line) => logger.log(line));
    url = embedded.url;
    logger.log(`embedded PostgreSQL ready on 127.0.0.1:${config.database.embeddedPort} in ${Date.now() - started} ms`);
  }
  try {
    if (config.database.migrateOnStart) {
      const applied = await migrateDatabase(url, { queueSchema: !config.queue.redisUrl });
      logger.log(applied.length > 0 ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
    }
  } catch (error) {
    await embedded?.stop();
    throw error;
  }
  return { url, embedded };
}
