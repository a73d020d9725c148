import type { MikroORM } from '@mikro-orm/postgresql';
import { Redis } from 'ioredis';
import type { AppConfig } from '../../config/env.js';

/** Injection token for the shared counters (Redis or PostgreSQL). */
export const RATE_LIMIT_STORE = Symbol('RATE_LIMIT_STORE');

export interface RateLimitHit {
  /** Requests counted for the key in the current window, this one included. */
  count: number;
  /** Whole seconds until the window ends (at least 1). */
  resetSeconds: number;
}

/**
 * Fixed-window request counters shared by every web process: Redis when REDIS_URL is set,
 * otherwise the application's PostgreSQL. A window starts with a key's first request.
 */
export interface RateLimitStore {
  /** Counts `amount` requests (default one) for the key; the answer includes them. */
  hit(key: string, windowSeconds: number, amount?: number): Promise<RateLimitHit>;
  /** Ends the key's window (e.g. a successful sign-in clears the failures). */
  reset(key: string): Promise<void>;
  close(): Promise<void>;
}

export async function createRateLimitStore(config: AppConfig, orm: MikroORM): Promise<RateLimitStore> {
  if (!config.queue.redisUrl) return new PostgresRateLimitStore(orm, config.apiRateLimit.windowSeconds);
  const store = new RedisRateLimitStore(config.queue.redisUrl, `${config.queue.prefix}:rate-limit:`);
  await store.connect();
  return store;
}

const REDIS_HIT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

export class RedisRateLimitStore implements RateLimitStore {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly keyPrefix: string,
  ) {
    // No offline queue: while Redis is unreachable a hit fails at once (and the limit is skipped) instead of waiting.
    this.redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.redis.on('error', () => undefined); // reported by the failing hits; ioredis reconnects by itself
  }

  connect(): Promise<void> {
    return this.redis.connect();
  }

  async hit(key: string, windowSeconds: number, amount = 1): Promise<RateLimitHit> {
    const [count, ttlMs] = (await this.redis.eval(REDIS_HIT, 1, this.keyPrefix + key, windowSeconds * 1000, amount)) as [number, number];
    return { count, resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.keyPrefix + key);
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}

const PG_HIT = `
insert into api_rate_limit as r (key, hits, window_ends_at) values (?, ?, now() + make_interval(secs => ?))
on conflict (key) do update set
  hits = case when r.window_ends_at <= now() then excluded.hits else r.hits + excluded.hits end,
  window_ends_at = case when r.window_ends_at <= now() then excluded.window_ends_at else r.window_ends_at end
returning hits, ceil(extract(epoch from r.window_ends_at - now()))::int as reset_seconds`;

/** Counters in an UNLOGGED table (see its migration); windows that ended are purged now and then. */
export class PostgresRateLimitStore implements RateLimitStore {
  private readonly purgeTimer: NodeJS.Timeout;

  constructor(
    private readonly orm: MikroORM,
    windowSeconds: number,
  ) {
    this.purgeTimer = setInterval(() => void this.purge(), Math.max(windowSeconds, 60) * 1000);
    this.purgeTimer.unref();
  }

  async hit(key: string, windowSeconds: number, amount = 1): Promise<RateLimitHit> {
    const [row] = await this.orm.em
      .getConnection()
      .execute<Array<{ hits: number; reset_seconds: number }>>(PG_HIT, [key, amount, windowSeconds]);
    return { count: row?.hits ?? 1, resetSeconds: Math.max(1, row?.reset_seconds ?? windowSeconds) };
  }

  async reset(key: string): Promise<void> {
    await this.orm.em.getConnection().execute(`delete from api_rate_limit where key = ?`, [key]);
  }

  private async purge(): Promise<void> {
    await this.orm.em
      .getConnection()
      .execute(`delete from api_rate_limit where window_ends_at < now()`)
      .catch(() => undefined); // the next purge tries again
  }

  async close(): Promise<void> {
    clearInterval(this.purgeTimer);
  }
}
