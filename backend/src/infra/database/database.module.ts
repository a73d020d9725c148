import { MikroOrmModule } from '@mikro-orm/nestjs';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { createOrmConfig } from './orm-config.js';

/** Injection token for the PostgreSQL URL in use (configured or embedded). */
export const DATABASE_URL = Symbol('DATABASE_URL');

@Global()
@Module({})
export class DatabaseModule {
  /** Entities come from the modules that declare them (MikroOrmModule.forFeature). */
  static forRoot(databaseUrl: string): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [MikroOrmModule.forRoot({ ...createOrmConfig(databaseUrl), autoLoadEntities: true, registerRequestContext: true })],
      providers: [{ provide: DATABASE_URL, useValue: databaseUrl }],
      exports: [DATABASE_URL],
    };
  }
}
