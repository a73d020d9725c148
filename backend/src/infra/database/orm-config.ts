import { defineConfig } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import { MIGRATIONS } from '../../migrations/index.js';
import type { EntityClass } from './entities.js';
import { FieldmarketPostgreSqlDriver } from './postgres-driver.js';

/** Tables migrations create with no entity, used through plain SQL or by a library: the schema diff leaves them alone. */
const UNMAPPED_TABLES = [
  'socket_io_attachments',
  'api_rate_limit',
  'listing_view',
  'listing_search_word',
  'listing_term',
  'postcode_lookup',
  'wanted_match',
];

/**
 * The ORM's options for a database URL; shared by the app, the migrate CLI and the tests.
 * Entities are added by the caller: the app loads them from its modules; running migrations
 * needs none.
 *
 * A read replica (`replicaUrl`) is used only where a query asks for it (`connectionType: 'read'`,
 * `getConnection('read')`): what a user must see at once after their own write reads the primary,
 * and the ORM would otherwise send every read outside a transaction to a replica that may lag.
 */
export function createOrmConfig(clientUrl: string, entities: EntityClass[] = [], replicaUrl?: string) {
  return defineConfig({
    // Nulls inside bound arrays written as null (postgres-driver.ts).
    driver: FieldmarketPostgreSqlDriver,
    clientUrl,
    entities,
    replicas: replicaUrl ? [{ name: 'replica', clientUrl: replicaUrl }] : [],
    preferReadReplicas: false,
    discovery: { warnWhenNoEntities: false },
    metadataProvider: ReflectMetadataProvider,
    extensions: [Migrator],
    migrations: {
      migrationsList: MIGRATIONS,
      tableName: 'mikro_orm_migrations',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
    // Triggers and functions are written in migrations (listing_term's upkeep and rank), not declared on entities.
    schemaGenerator: { skipTables: UNMAPPED_TABLES, ignoreTriggers: true, ignoreRoutines: true },
    pool: { min: 0, max: 10 },
    // Every query here reads or writes a few rows: compiling it (JIT) or starting parallel workers
    // costs more than it saves, and a misjudged row count could otherwise cost a page 10 ms.
    driverOptions: { options: '-c jit=off -c max_parallel_workers_per_gather=0' },
    allowGlobalContext: false,
    debug: false,
  });
}
