import { Logger } from '@nestjs/common';
import { runMigrations, type QueueOptions } from 'bullmq';
import pg from 'pg';
import type { AppConfig } from '../../config/env.js';
import { ThrottledLog } from '../../common/throttled-log.js';
import { describe, type QueueBackendName } from './queue-classes.js';

/**
 * The queue backend's connection, which @nestjs/bullmq's shared configuration hands every queue and
 * worker: Redis when REDIS_URL is set, otherwise BullMQ's PostgreSQL backend on the application's
 * own database (the classes in queue-classes.ts pick the backend from it). Connection errors go
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

  get backendName(): QueueBackendName {
    return this.queueConfig.redisUrl ? 'redis' : 'postgres';
  }

  /** BullModule's shared configuration: the connection and key prefix of every queue and worker. */
  sharedOptions(): QueueOptions {
    const { redisUrl, prefix } = this.queueConfig;
    // The PostgreSQL backend takes a pg.Pool where Redis takes ioredis options.
    const connection = redisUrl ? { url: redisUrl } : (this.postgresConnection() as unknown as QueueOptions['connection']);
    return { connection, prefix };
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
