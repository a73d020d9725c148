import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ConfigError, type AppConfig } from '../../config/env.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

/** The database a command-line tool works on: DATABASE_URL, or the embedded one under DATA_DIR. */
export function commandDatabaseUrl(config: AppConfig): string {
  if (config.database.url) return config.database.url;
  const secretFile = join(config.dataDir, 'postgres.secret');
  if (!existsSync(secretFile)) {
    throw new ConfigError(
      `No DATABASE_URL, and no embedded database in ${config.dataDir} yet: start the product once (./fieldmarket start).`,
    );
  }
  const password = readFileSync(secretFile, 'utf8').trim();
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${config.database.embeddedPort}/fieldmarket`;
}

export interface CommandDatabase {
  url: string;
  /** Stops the embedded server when this command started it. */
  release(): Promise<void>;
}

/**
 * DATABASE_URL; else the embedded database: the running product's, or started here for the
 * command (a restore onto a fresh DATA_DIR creates it) and stopped by `release`.
 */
export async function openCommandDatabase(config: AppConfig, log: (line: string) => void): Promise<CommandDatabase> {
  const none = async () => undefined;
  if (config.database.url) return { url: config.database.url, release: none };
  if (existsSync(join(config.dataDir, 'postgres.secret'))) {
    const url = commandDatabaseUrl(config);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
    const running = await client.connect().then(
      () => true,
      () => false,
    );
    await client.end().catch(() => undefined);
    if (running) return { url, release: none };
  }
  log(`starting the embedded PostgreSQL in ${config.dataDir} for this command`);
  const embedded = await startEmbeddedPostgres(config.dataDir, config.database.embeddedPort, log);
  return { url: embedded.url, release: () => embedded.stop() };
}
