import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { appEntities } from '../app.module.js';
import { startEmbeddedPostgres } from '../infra/database/embedded-postgres.js';
import { migrateDatabase } from '../infra/database/migrate.js';
import { createOrmConfig } from '../infra/database/orm-config.js';

/**
 * `npm run migration:create -- <name>`: writes a migration for the difference between the
 * entities (as the modules declare them) and the schema the committed migrations build, then
 * lists it in migrations/index.ts. Works on a throw-away database: TEST_DATABASE_URL or
 * DATABASE_URL's server when set, otherwise an embedded PostgreSQL.
 */
const name = process.argv[2] ?? '';
if (!/^[a-z][a-z0-9-]{1,60}$/.test(name)) {
  console.error('usage: npm run migration:create -- <name in lower-case-with-dashes>');
  process.exit(2);
}
const migrationsDir = fileURLToPath(new URL('../../src/migrations', import.meta.url));

const server = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
const embedded = server ? undefined : await startEmbeddedPostgres(await mkdtemp(join(tmpdir(), 'fm-migration-')), 54_399, () => undefined);
const serverUrl = new URL(server ?? (embedded?.url as string));
const scratch = `fm_migration_${randomBytes(4).toString('hex')}`;
const admin = new URL(serverUrl);
admin.pathname = '/postgres';
const scratchUrl = new URL(serverUrl);
scratchUrl.pathname = `/${scratch}`;

await sql(admin, `create database ${scratch}`);
try {
  await migrateDatabase(scratchUrl.toString(), { queueSchema: false });
  const orm = await MikroORM.init({
    ...createOrmConfig(scratchUrl.toString(), appEntities()),
    migrations: {
      ...createOrmConfig('').migrations,
      path: migrationsDir,
      emit: 'ts',
      fileName: (timestamp: string) => `Migration${timestamp}_${name.replaceAll('-', '_')}`,
    },
  });
  try {
    const result = await orm.migrator.create(migrationsDir, false, false, name);
    if (!result.fileName) {
      console.log('The entities match the migrations: nothing to create.');
    } else {
      await writeIndex();
      execFileSync(
        'npx',
        ['prettier', '--log-level', 'warn', '--write', join(migrationsDir, result.fileName), join(migrationsDir, 'index.ts')],
        {
          stdio: 'inherit',
        },
      );
      console.log(`Created backend/src/migrations/${result.fileName}; review it, then commit it with the entity change.`);
    }
  } finally {
    await orm.close(true);
  }
} finally {
  await sql(admin, `drop database if exists ${scratch} with (force)`);
  await embedded?.stop();
}

/** migrations/index.ts lists every migration file in order, so the compiled app needs no file discovery. */
async function writeIndex(): Promise<void> {
  const files = (await readdir(migrationsDir)).filter((f) => /^Migration\d+_.+\.ts$/.test(f)).sort();
  const entries = await Promise.all(
    files.map(async (file) => {
      const source = await readFile(join(migrationsDir, file), 'utf8');
      const className = /export class (\w+)/.exec(source)?.[1];
      if (!className) throw new Error(`${file} exports no migration class`);
      return { file: file.replace(/\.ts$/, ''), className };
    }),
  );
  await writeFile(
    join(migrationsDir, 'index.ts'),
    [
      `import type { MigrationObject } from '@mikro-orm/core';`,
      ...entries.map((e) => `import { ${e.className} } from './${e.file}.js';`),
      '',
      '/** Migrations in the order they apply; written by `npm run migration:create`, so the compiled app needs no file discovery. */',
      `export const MIGRATIONS: MigrationObject[] = [`,
      ...entries.map((e) => `  { name: '${e.file}', class: ${e.className} },`),
      '];',
      '',
    ].join('\n'),
  );
}

async function sql(url: URL, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}
