import { defineConfig } from '@mikro-orm/postgresql';
import { ReflectMetadataProvider } from '@mikro-orm/decorators/legacy';
import { Migrator } from '@mikro-orm/migrations';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from '../../migrations/index.js';

/** The ORM's options for a database URL; shared by the app, the migrate CLI and the tests. */
export function createOrmConfig(clientUrl: string) {
  return defineConfig({
    clientUrl,
    entities: ENTITIES,
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
    // Tables with no entity, used through plain SQL: the schema diff leaves them alone.
    schemaGenerator: { skipTables: ['api_rate_limit'] },
    pool: { min: 0, max: 10 },
    allowGlobalContext: false,
    debug: false,
  });
}
