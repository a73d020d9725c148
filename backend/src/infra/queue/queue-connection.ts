import { createPostgresBackend, Queue, runMigrations, Worker, type Processor, type QueueOptions, type WorkerOptions } from 'bullmq';
import pg from 'pg';
import type { AppConfig } from '../../config/env.js';

/**
 * Builds BullMQ queues and workers on the configured backend: Redis when REDIS_URL is set,
 * otherwise BullMQ's PostgreSQL backend on the application's own database.
 */
export class QueueConnection {
  constructor(
    private readonly queueConfig: AppConfig['queue'],
    private readonly databaseUrl: string,
  ) {}

  get backendName(): 'redis' | 'postgres' {
    return this.queueConfig.redisUrl ? 'redis' : 'postgres';
  }

  createQueue(name: string): Queue {
    const { redisUrl, prefix } = this.queueConfig;
    if (redisUrl) return new Queue(name, { connection: redisConnection(redisUrl), prefix } as QueueOptions);
    // Same runtime API on both backends; the generic differs only in the connection type.
    return new Queue(name, { connection: this.postgresConnection(), prefix }, createPostgresBackend) as unknown as Queue;
  }

  createWorker(name: string, processor: Processor, concurrency: number): Worker {
    const { redisUrl, prefix } = this.queueConfig;
    if (redisUrl) {
      return new Worker(name, processor, { connection: redisConnection(redisUrl), prefix, concurrency, autorun: false } as WorkerOptions);
    }
    return new Worker(
      name,
      processor,
      { connection: this.postgresConnection(), prefix, concurrency, autorun: false },
      createPostgresBackend,
    ) as unknown as Worker;
  }

  private postgresConnection() {
    return { connectionString: this.databaseUrl, max: 4 };
  }
}

function redisConnection(url: string) {
  // BullMQ workers need maxRetriesPerRequest: null for their blocking commands.
  return { url, maxRetriesPerRequest: null };
}

/** Creates or upgrades BullMQ's tables (schema "bullmq") when queues live in PostgreSQL. */
export async function migrateQueueSchema(databaseUrl: string): Promise<void> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const client = await pool.connect();
  try {
    await runMigrations(client);
  } finally {
    client.release();
    await pool.end();
  }
}
