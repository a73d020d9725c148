import { Logger } from '@nestjs/common';
import { createPostgresBackend, Queue, runMigrations, Worker, type Processor, type QueueOptions, type WorkerOptions } from 'bullmq';
import pg from 'pg';
import type { AppConfig } from '../../config/env.js';
import { retryDelayMs } from '../../jobs/queues.js';
import { ThrottledLog } from '../../common/throttled-log.js';

/**
 * Builds BullMQ queues and workers on the configured backend: Redis when REDIS_URL is set,
 * otherwise BullMQ's PostgreSQL backend on the application's own database. Connection errors go
 * through the structured logger, at most once a minute per source, never as raw ioredis noise.
 */
export class QueueConnection {
  private readonly logger = new Logger('Queue');
  private readonly errors = new ThrottledLog(this.logger, 60_000);
  /**
   * On PostgreSQL, one pool for every queue and worker of the process (each would otherwise open
   * its own, some 25 connections a process). Each worker holds one of these for LISTEN.
   */
  private postgresPool: pg.Pool | undefined;

  constructor(
    private readonly queueConfig: AppConfig['queue'],
    private readonly databaseUrl: string,
  ) {}

  get backendName(): 'redis' | 'postgres' {
    return this.queueConfig.redisUrl ? 'redis' : 'postgres';
  }

  /** A producer: with Redis down, its calls fail at once instead of queueing forever (the outbox retries). */
  createQueue(name: string): Queue {
    const { redisUrl, prefix } = this.queueConfig;
    const queue = redisUrl
      ? new Queue(name, { connection: { url: redisUrl, enableOfflineQueue: false, maxRetriesPerRequest: 1 }, prefix } as QueueOptions)
      : // Same runtime API on both backends; the generic differs only in the connection type.
        (new Queue(name, { connection: this.postgresConnection(), prefix }, createPostgresBackend) as unknown as Queue);
    queue.on('error', (error: Error) => this.errors.warn(`queue ${name}`, `queue "${name}": ${describe(error, this.backendName)}`));
    return queue;
  }

  createWorker(name: string, processor: Processor, concurrency: number): Worker {
    const { redisUrl, prefix } = this.queueConfig;
    const options = {
      prefix,
      concurrency,
      autorun: false,
      // A worker killed mid-job leaves it "stalled"; it goes back to the queue a few times before failing.
      maxStalledCount: 5,
      settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade) },
    };
    const worker = redisUrl
      ? // BullMQ workers need maxRetriesPerRequest: null for their blocking commands.
        new Worker(name, processor, { ...options, connection: { url: redisUrl, maxRetriesPerRequest: null } } as WorkerOptions)
      : (new Worker(name, processor, { ...options, connection: this.postgresConnection() }, createPostgresBackend) as unknown as Worker);
    worker.on('error', (error: Error) => this.errors.warn(`worker ${name}`, `worker for "${name}": ${describe(error, this.backendName)}`));
    return worker;
  }

  private postgresConnection(): pg.Pool {
    if (!this.postgresPool) {
      // BullMQ's tables live in the "bullmq" schema; a pool we build ourselves must say so.
      this.postgresPool = new pg.Pool({ connectionString: this.databaseUrl, max: 10, options: '-c search_path="bullmq"' });
      const onError = (error: Error) => this.errors.warn('pool', `queue pool: ${describe(error, 'postgres')}`);
      this.postgresPool.on('error', onError);
      // Checked-out clients (a worker's LISTEN) have no listener of the pool's: a dropped connection must not end the process.
      this.postgresPool.on('connect', (client) => client.on('error', onError));
    }
    return this.postgresPool;
  }

  /** After every queue and worker has closed. */
  async close(): Promise<void> {
    await this.postgresPool?.end();
    this.postgresPool = undefined;
  }
}

function describe(error: Error, backend: 'redis' | 'postgres'): string {
  const variable = backend === 'redis' ? 'REDIS_URL' : 'DATABASE_URL';
  return `${error.message || error.name} (queues on ${backend}, ${variable})`;
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
