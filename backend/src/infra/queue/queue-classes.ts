import { Logger } from '@nestjs/common';
import {
  type BackendFactory,
  type ConnectionOptions,
  createPostgresBackend,
  createRedisBackend,
  type Processor,
  Queue,
  type QueueOptions,
  type RedisQueueBackend,
  Worker,
  type WorkerOptions,
} from 'bullmq';
import pg from 'pg';
import { ThrottledLog } from '../../common/throttled-log.js';
import { withTimeout } from '../../common/timeout.js';

/**
 * The Queue and Worker classes @nestjs/bullmq builds (BullModule.queueClass / workerClass). Each
 * runs on the backend its connection names: a pg.Pool is BullMQ's PostgreSQL backend, anything
 * else Redis. And each bounds its own close(), whoever calls it: BullMQ memoises close(), and
 * @nestjs/bullmq awaits it in its shutdown hooks with no bound, so a backend that is down would
 * otherwise hold the process past its grace period.
 */

/** How long a queue (a producer) may take to close before its connection is dropped. */
export const QUEUE_CLOSE_TIMEOUT_MS = 5_000;
/** How long running jobs may take to finish at shutdown before they are abandoned (they run again later). */
export const WORKER_DRAIN_TIMEOUT_MS = 10_000;
const DISCONNECT_TIMEOUT_MS = 2_000;

const logger = new Logger('Queue');
const problems = new ThrottledLog(logger, 60_000);

export type QueueBackendName = 'redis' | 'postgres';

export function backendOf(connection: unknown): QueueBackendName {
  return connection instanceof pg.Pool ? 'postgres' : 'redis';
}

/** A queue backend's error for the log, with the backend and the setting that chose it. */
export function describe(error: Error, backend: QueueBackendName): string {
  const variable = backend === 'redis' ? 'REDIS_URL' : 'DATABASE_URL';
  return `${error.message || error.name} (queues on ${backend}, ${variable})`;
}

/** Redis connection options by role; the PostgreSQL pool is shared as it is. */
function connectionFor(connection: ConnectionOptions | undefined, role: 'producer' | 'worker'): ConnectionOptions | pg.Pool | undefined {
  if (backendOf(connection) === 'postgres') return connection;
  return role === 'producer'
    ? // With Redis down, a producer's calls fail at once instead of queueing forever (the outbox retries).
      { ...connection, enableOfflineQueue: false, maxRetriesPerRequest: 1 }
    : // BullMQ workers need maxRetriesPerRequest: null for their blocking commands.
      { ...connection, enableOfflineQueue: true, maxRetriesPerRequest: null };
}

const BACKENDS: Record<QueueBackendName, BackendFactory<RedisQueueBackend>> = {
  redis: createRedisBackend,
  // The classes keep BullMQ's Redis typing; the PostgreSQL backend answers the same calls.
  postgres: createPostgresBackend as unknown as BackendFactory<RedisQueueBackend>,
};

export class BackendQueue extends Queue {
  private boundedClose: Promise<void> | undefined;

  constructor(name: string, options: QueueOptions) {
    const backend = backendOf(options.connection);
    const connection = connectionFor(options.connection, 'producer') as ConnectionOptions;
    super(name, { ...options, connection }, BACKENDS[backend]);
    this.on('error', (error: Error) => problems.warn(`queue ${name}`, `queue "${name}": ${describe(error, backend)}`));
  }

  override close(): Promise<void> {
    this.boundedClose ??= withTimeout(super.close(), QUEUE_CLOSE_TIMEOUT_MS, 'queue close timed out').catch(async () => {
      // The backend is unreachable: drop the connection rather than wait for it.
      await withTimeout(this.disconnect(), DISCONNECT_TIMEOUT_MS, 'queue disconnect timed out').catch(() => undefined);
    });
    return this.boundedClose;
  }
}

export class BackendWorker extends Worker {
  private boundedClose: Promise<void> | undefined;

  constructor(name: string, processor: string | URL | null | Processor, options: WorkerOptions) {
    const backend = backendOf(options.connection);
    const connection = connectionFor(options.connection, 'worker') as ConnectionOptions;
    super(name, processor, { ...options, connection }, BACKENDS[backend]);
    this.on('error', (error: Error) => problems.warn(`worker ${name}`, `worker for "${name}": ${describe(error, backend)}`));
  }

  /**
   * A running job's lock lasts `ms` (renewed at half of it), and the stalled check runs as often: a
   * job whose worker died goes back to the queue after one to two of these (BullMQ: 30 s). Before run().
   */
  lockJobsFor(ms: number): void {
    Object.assign(this.opts, { lockDuration: ms, lockRenewTime: ms / 2, stalledInterval: ms });
    this.createLockManager();
  }

  /** Stops taking jobs and lets running ones finish, for at most WORKER_DRAIN_TIMEOUT_MS. */
  override close(force = false): Promise<void> {
    this.boundedClose ??= withTimeout(super.close(force), WORKER_DRAIN_TIMEOUT_MS, 'worker drain timed out').catch(async () => {
      logger.warn(`jobs on "${this.name}" did not finish within ${WORKER_DRAIN_TIMEOUT_MS} ms; they will run again`);
      await withTimeout(this.disconnect(), DISCONNECT_TIMEOUT_MS, 'worker disconnect timed out').catch(() => undefined);
    });
    return this.boundedClose;
  }
}
