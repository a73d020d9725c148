import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { migrateDatabase } from '../infra/database/migrate.js';

export interface TestDatabase {
  url: string;
  /** Runs SQL against the test database (for assertions on stored rows). */
  query<T extends pg.QueryResultRow>(sql: string, params?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/**
 * A fresh database of its own for one test file, dropped afterwards: a copy of the template jest's
 * globalSetup migrated for this run (with or without BullMQ's schema), or, outside that setup, an
 * empty database migrated here. `empty`: not migrated at all (a restore's target). `server`: on
 * another server than the run's (e.g. serverForClientTools'), migrated here.
 */
export async function createTestDatabase(options: { queueSchema?: boolean; empty?: boolean; server?: string } = {}): Promise<TestDatabase> {
  const serverUrl = options.server ?? process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest (globalSetup)');
  const queueSchema = options.queueSchema ?? true;
  const onRunServer = !options.server || options.server === process.env.TEST_DATABASE_URL;
  const template =
    options.empty || !onRunServer
      ? undefined
      : queueSchema
        ? process.env.TEST_TEMPLATE_DATABASE
        : process.env.TEST_TEMPLATE_DATABASE_NO_QUEUE;
  const name = `fm_test_${randomBytes(6).toString('hex')}`;
  const admin = new URL(serverUrl);
  admin.pathname = '/postgres';
  await withClient(admin.toString(), (client) => client.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  if (!options.empty && !template) await migrateDatabase(url.toString(), { queueSchema });
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    url: url.toString(),
    query: async <T extends pg.QueryResultRow>(sql: string, params: unknown[] = []) => (await pool.query<T>(sql, params)).rows,
    /**
     * Drops the database (on the run's server: soon after, beside the run); fails when a connection is still
     * open to it (something the app did not close).
     */
    drop: async () => {
      await pool.end();
      const dropQueue = onRunServer ? process.env.TEST_DROP_QUEUE : undefined;
      const leftover = await withClient(admin.toString(), async (client) => {
        // A closing client may take a moment to disconnect on the server side.
        for (let attempt = 0; ; attempt++) {
          const open = await client.query<{ application_name: string; query: string }>(
            `select application_name, query from pg_stat_activity where datname = $1`,
            [name],
          );
          if (open.rows.length === 0 && dropQueue) {
            // Dropped by jest's main process beside the run (database-dropper.mjs): the file does not wait.
            await writeFile(join(dropQueue, name), '');
            return open.rows;
          }
          if (open.rows.length === 0 || attempt === 100) {
            await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            return open.rows;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      });
      if (leftover.length > 0) {
        throw new Error(`connections were left open to the test database: ${JSON.stringify(leftover)}`);
      }
    },
  };
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
