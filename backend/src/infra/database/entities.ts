import { MikroOrmModule } from '@mikro-orm/nestjs';
import type { DynamicModule } from '@nestjs/common';

export type EntityClass = new (...args: never[]) => object;

const declared = new Set<EntityClass>();

/**
 * A module declares its entities with this in its imports: the ORM loads them (autoLoadEntities)
 * and the migration tooling finds them through declaredEntities(), with no central list.
 */
export function ormEntities(entities: EntityClass[]): DynamicModule {
  for (const entity of entities) declared.add(entity);
  return MikroOrmModule.forFeature(entities);
}

/** Every entity declared by the modules imported so far (import the app module first). */
export function declaredEntities(): EntityClass[] {
  return [...declared];
}
