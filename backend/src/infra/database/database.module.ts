import { MikroOrmModule } from '@mikro-orm/nestjs';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { declaredEntities, ormEntities } from './entities.js';
import { createOrmConfig } from './orm-config.js';
import { PreparedQueries } from './prepared-queries.js';
import { ReplicaReads } from './replica-reads.js';
import { currentEntityManager } from './request-context.js';

/** Injection token for the PostgreSQL URL in use (configured or embedded). */
export const DATABASE_URL = Symbol('DATABASE_URL');

@Global()
@Module({})
export class DatabaseModule {
  /**
   * Entities come from the modules that declare them (MikroOrmModule.forFeature). Each HTTP request
   * gets its EntityManager fork on first use (request-context.ts; the web app installs it), not
   * from MikroORM's middleware.
   */
  static forRoot(databaseUrl: string, replicaUrl?: string): DynamicModule {
    // Every entity declared so far, declared again for this app: @mikro-orm/nestjs empties its list at the first
    // declaration after an app has closed, and the modules declared theirs once, when imported (spec files that
    // share one module registry, jest.config.js's groups, build one app after another).
    ormEntities(declaredEntities());
    return {
      module: DatabaseModule,
      imports: [
        MikroOrmModule.forRoot({
          ...createOrmConfig(databaseUrl, [], replicaUrl),
          autoLoadEntities: true,
          registerRequestContext: false,
          context: currentEntityManager,
        }),
      ],
      providers: [{ provide: DATABASE_URL, useValue: databaseUrl }, PreparedQueries, ReplicaReads],
      exports: [DATABASE_URL, PreparedQueries, ReplicaReads],
    };
  }
}
