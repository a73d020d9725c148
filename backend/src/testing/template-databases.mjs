// Loaded by jest's globalSetup outside its transform, so it uses the compiled backend.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrateDatabase } from '../../dist/infra/database/migrate.js';
import { migrateQueueSchema } from '../../dist/infra/queue/queue-connection.js';

/**
 * Migrates the schema once per run into two template databases, one with BullMQ's PostgreSQL
 * schema and one without; createTestDatabase copies each test file's database from one of them
 * (CREATE DATABASE … TEMPLATE), which takes a fraction of running every migration again.
 */
export async function createTemplateDatabases(serverUrl) {
  const run = randomBytes(4).toString('hex');
  const withoutQueueSchema = `fm_template_${run}_plain`;
  const withQueueSchema = `fm_template_${run}_queue`;
  const admin = databaseUrl(serverUrl, 'postgres');
  const created = [];
  const drop = () =>
    withAdmin(admin, async (client) => {
      for (const name of created) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
  try {
    await withAdmin(admin, (client) => client.query(`CREATE DATABASE ${withoutQueueSchema}`));
    created.push(withoutQueueSchema);
    await migrateDatabase(databaseUrl(serverUrl, withoutQueueSchema), { queueSchema: false });
    await withAdmin(admin, (client) => client.query(`CREATE DATABASE ${withQueueSchema} TEMPLATE ${withoutQueueSchema}`));
    created.push(withQueueSchema);
    await migrateQueueSchema(databaseUrl(serverUrl, withQueueSchema));
  } catch (error) {
    await drop();
    throw error;
  }
  return { withQueueSchema, withoutQueueSchema, drop };
}

function databaseUrl(serverUrl, name) {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withAdmin(url, run) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}
