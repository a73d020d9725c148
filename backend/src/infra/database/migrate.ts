import { MikroORM } from '@mikro-orm/postgresql';
import { migrateQueueSchema } from '../queue/queue-connection.js';
import { createOrmConfig } from './orm-config.js';

/**
 * Applies pending application migrations (and BullMQ's own schema when queues live in
 * PostgreSQL). Returns the names of the migrations it applied.
 */
export async function migrateDatabase(url: string, options: { queueSchema: boolean }): Promise<string[]> {
  const orm = new MikroORM(createOrmConfig(url));
  try {
    const applied = await orm.migrator.up();
    if (options.queueSchema) await migrateQueueSchema(url);
    return applied.map((m) => m.name);
  } finally {
    await orm.close(true);
  }
}
