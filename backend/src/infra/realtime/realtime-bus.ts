import type { INestApplicationContext } from '@nestjs/common';
import { Logger } from '@nestjs/common';
import { IoAdapter } from '@nestjs/platform-socket.io';
import pg from 'pg';
import type { Server, ServerOptions } from 'socket.io';
import { ThrottledLog } from '../../common/throttled-log.js';
import { withTimeout } from '../../common/timeout.js';
import type { AppConfig } from '../../config/env.js';
import type { RealtimeTarget } from './realtime.js';

/** The table the PostgreSQL adapter keeps payloads too large for NOTIFY in (created by a migration). */
export const SOCKET_IO_ATTACHMENTS_TABLE = 'socket_io_attachments';

/**
 * How socket.io events travel between processes:
 *  - redis: REDIS_URL is set (the Redis adapter in web processes, the Redis emitter in workers);
 *  - postgres: an external DATABASE_URL without Redis (LISTEN/NOTIFY adapter and emitter), so
 *    several web processes and a separate worker process still reach every socket;
 *  - memory: the embedded default, one process that holds every socket.
 */
export interface RealtimeBus {
  readonly kind: 'memory' | 'redis' | 'postgres';
  /** Makes a socket.io server share its rooms with the other processes. */
  install(server: Server): void;
  /** For a process without a socket.io server (the worker process). */
  emitter(): RealtimeTarget;
  /** Waits (bounded) until the server's adapter has finished connecting, so closing it releases everything. */
  settle(server: Server): Promise<void>;
  close(): Promise<void>;
}

export async function createRealtimeBus(config: AppConfig, databaseUrl: string): Promise<RealtimeBus> {
  const logger = new Logger('Realtime');
  const problems = new ThrottledLog(logger, 60_000);
  const channel = `${config.queue.prefix}:socket.io`;
  // Each kind loads its own client libraries, so the embedded default loads neither.
  if (config.queue.redisUrl) {
    const [{ Redis }, { createAdapter: createRedisAdapter }, { Emitter: RedisEmitter }] = await Promise.all([
      import('ioredis'),
      import('@socket.io/redis-adapter'),
      import('@socket.io/redis-emitter'),
    ]);
    const pub = new Redis(config.queue.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    // The subscriber only (un)subscribes: with no retry limit, what it sends while Redis is down waits
    // for the reconnection (or is dropped at disconnect) instead of failing unhandled inside the
    // adapter, whose close() does not await its unsubscribes (a shutdown with Redis gone crashed).
    const sub = pub.duplicate({ maxRetriesPerRequest: null });
    for (const client of [pub, sub])
      client.on('error', (error: Error) => problems.warn('redis', `socket.io Redis (REDIS_URL): ${error.message}`));
    await withTimeout(Promise.all([pub.connect(), sub.connect()]), 10_000, 'Redis did not answer within 10 s').catch((error: unknown) => {
      pub.disconnect();
      sub.disconnect();
      throw new Error(`Cannot reach Redis at REDIS_URL for socket.io: ${error instanceof Error ? error.message : String(error)}`);
    });
    return {
      kind: 'redis',
      install: (server) => void server.adapter(createRedisAdapter(pub, sub, { key: channel })),
      emitter: (): RealtimeTarget => new RedisEmitter(pub, { key: channel }),
      settle: async () => undefined,
      close: async () => {
        pub.disconnect();
        sub.disconnect();
      },
    };
  }
  if (config.database.url) {
    const [{ createAdapter: createPostgresAdapter }, { encode: msgpack }] = await Promise.all([
      import('@socket.io/postgres-adapter'),
      import('@msgpack/msgpack'),
    ]);
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
    const onError = (error: Error) => problems.warn('postgres', `socket.io PostgreSQL (DATABASE_URL): ${error.message}`);
    pool.on('error', onError);
    // The adapter holds a client for LISTEN without an error listener: a dropped connection would
    // otherwise be an unhandled error that ends the process. (The adapter reconnects by itself.)
    pool.on('connect', (client) => client.on('error', onError));
    const options = { channelPrefix: channel.replace(/[^\w]/g, '_'), tableName: SOCKET_IO_ATTACHMENTS_TABLE };
    return {
      kind: 'postgres',
      install: (server) =>
        void server.adapter(
          createPostgresAdapter(pool, {
            ...options,
            errorHandler: (error: Error) => problems.warn('postgres-adapter', `socket.io PostgreSQL adapter: ${error.message}`),
          }),
        ),
      emitter: () => postgresEmitter(pool, options, msgpack),
      settle: async (server) => {
        // The adapter takes a LISTEN connection from the pool as the server starts; closed before it
        // has one, it never releases it (and pool.end() would wait for ever).
        const pubsub = (server.of('/').adapter as unknown as { client?: { client?: unknown } }).client;
        const deadline = Date.now() + 3_000;
        while (pubsub && !pubsub.client && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      },
      close: () => withTimeout(pool.end(), 3_000, 'closing the socket.io PostgreSQL pool').catch(() => undefined),
    };
  }
  return {
    kind: 'memory',
    install: () => undefined,
    emitter: () => {
      throw new Error('No realtime bus between processes: run the workers in the web process, or set REDIS_URL or DATABASE_URL');
    },
    settle: async () => undefined,
    close: async () => undefined,
  };
}

/** Nest's socket.io adapter with the bus installed on the server it creates. */
export class BusIoAdapter extends IoAdapter {
  constructor(
    app: INestApplicationContext,
    private readonly bus: RealtimeBus,
  ) {
    super(app);
  }

  override createIOServer(port: number, options?: ServerOptions): Server {
    const server = super.createIOServer(port, options) as Server;
    this.bus.install(server);
    return server;
  }

  override async close(server: Server): Promise<void> {
    await this.bus.settle(server);
    await super.close(server);
  }
}

/** NOTIFY carries at most 8000 bytes; larger messages go through the attachments table. */
const NOTIFY_LIMIT_BYTES = 7_900;
const EMITTER_UID = 'emitter';
const BROADCAST = 3; // socket.io-adapter's cluster message types
const DISCONNECT_SOCKETS = 6;
const EVENT_PACKET = 2; // socket.io-parser's packet type

/**
 * Emits from a process without a socket.io server, in the message format of the PostgreSQL
 * adapter (socket.io's own postgres-emitter speaks an older format the current adapter ignores).
 */
function postgresEmitter(
  pool: pg.Pool,
  options: { channelPrefix: string; tableName: string },
  msgpack: (value: unknown) => Uint8Array,
): RealtimeTarget {
  const channel = `${options.channelPrefix}#/`;
  const send = async (content: { type: number; data: unknown }): Promise<void> => {
    const message = { uid: EMITTER_UID, nsp: '/', ...content };
    const json = JSON.stringify(message);
    if (Buffer.byteLength(json) <= NOTIFY_LIMIT_BYTES) {
      await pool.query('select pg_notify($1, $2)', [channel, json]);
      return;
    }
    const stored = await pool.query<{ id: string }>(`insert into ${options.tableName} (payload) values ($1) returning id`, [
      Buffer.from(msgpack(message)),
    ]);
    const header = JSON.stringify({ uid: EMITTER_UID, type: content.type, attachmentId: stored.rows[0]?.id });
    await pool.query('select pg_notify($1, $2)', [channel, header]);
  };
  const publish = async (rooms: string[], event: string, payload: unknown): Promise<void> =>
    send({
      type: BROADCAST,
      data: { packet: { type: EVENT_PACKET, data: [event, payload], nsp: '/' }, opts: { rooms, except: [], flags: {} } },
    });
  const logFailure = (error: unknown) => new Logger('Realtime').warn(`could not publish a socket.io event: ${String(error)}`);
  return {
    to: (room) => ({ emit: (event, payload) => void publish([room], event, payload).catch(logFailure) }),
    emit: (event, payload) => void publish([], event, payload).catch(logFailure),
    in: (rooms) => ({
      disconnectSockets: (close = false) =>
        void send({ type: DISCONNECT_SOCKETS, data: { opts: { rooms: [rooms].flat(), except: [], flags: {} }, close } }).catch(logFailure),
    }),
  };
}
