import 'reflect-metadata';
import { loadConfig } from '../config/env.js';
import { migrateDatabase } from '../infra/database/migrate.js';

/** `./fieldmarket migrate`: applies migrations to DATABASE_URL (the deploy step). */
const config = loadConfig();
if (!config.database.url) {
  console.error('DATABASE_URL is not set; the embedded database is migrated by ./fieldmarket start.');
  process.exit(1);
}
const applied = await migrateDatabase(config.database.url, { queueSchema: !config.queue.redisUrl });
console.log(applied.length > 0 ? `Applied: ${applied.join(', ')}` : 'Nothing to apply; the schema is up to date.');
