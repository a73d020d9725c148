import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { productUnderTest } from './product.js';

/**
 * A connection to the running product's embedded PostgreSQL, as an operator with psql has: for
 * tests that must hold the product at a moment it passes too quickly to watch (a row locked
 * while a background job waits on it). Close it with `end()`.
 */
export async function productDatabase(): Promise<pg.Client> {
  const { dataDir, embeddedPostgresPort } = productUnderTest();
  const password = (await readFile(join(dataDir, 'postgres.secret'), 'utf8')).trim();
  const client = new pg.Client({ host: '127.0.0.1', port: embeddedPostgresPort, user: 'postgres', password, database: 'fieldmarket' });
  await client.connect();
  return client;
}
