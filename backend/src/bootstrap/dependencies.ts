import type { Logger } from '@nestjs/common';
import pg from 'pg';
import { withTimeout } from '../common/timeout.js';
import type { AppConfig } from '../config/env.js';

/** A configured service could not be reached at start; the message says which, where and what to check. */
export class DependencyUnavailableError extends Error {}

const PROBE_TIMEOUT_MS = 5_000;

/**
 * Waits for the configured PostgreSQL and Redis to answer, retrying with back-off for at most
 * STARTUP_WAIT_SECONDS (a container that starts beside its database often starts first), then
 * gives up with a message naming the variable and what was tried.
 */
export async function waitForServices(config: AppConfig, logger: Logger): Promise<void> {
  const waitMs = config.startupWaitSeconds * 1000;
  if (config.database.url) {
    await waitFor(
      { name: 'PostgreSQL', variable: 'DATABASE_URL', url: config.database.url },
      () => probePostgres(config.database.url as string),
      logger,
      waitMs,
    );
  }
  if (config.queue.redisUrl) {
    await waitFor(
      { name: 'Redis', variable: 'REDIS_URL', url: config.queue.redisUrl },
      () => probeRedis(config.queue.redisUrl as string),
      logger,
      waitMs,
    );
  }
}

export async function waitFor(
  service: { name: string; variable: string; url: string },
  probe: () => Promise<void>,
  logger: Logger,
  waitMs: number,
): Promise<void> {
  const where = `${service.variable} (${redactUrl(service.url)})`;
  const started = Date.now();
  let delay = 500;
  for (let attempt = 1; ; attempt++) {
    try {
      await withTimeout(probe(), PROBE_TIMEOUT_MS, `no answer within ${PROBE_TIMEOUT_MS / 1000} s`);
      if (attempt > 1) logger.log(`${service.name} at ${where} is reachable`);
      return;
    } catch (error) {
      const reason = describe(error);
      const elapsed = Date.now() - started;
      // The whole wait is used: the last pause ends at its end, for one more try (it used to stop as soon as the next
      // full pause would have passed it, after 1 s of a 2-s wait on a busy machine).
      if (elapsed >= waitMs) {
        throw new DependencyUnavailableError(
          `Cannot reach ${service.name} at ${where}: ${reason}. Tried ${attempt} time${attempt === 1 ? '' : 's'} over ${Math.round(elapsed / 1000)} s; ` +
            `check that ${service.name} is running and that ${service.variable} is right (STARTUP_WAIT_SECONDS sets how long to wait).`,
        );
      }
      const pause = Math.min(delay, waitMs - elapsed);
      logger.warn(`${service.name} at ${where} is not reachable yet (${reason}); retrying in ${pause} ms`);
      await new Promise((resolve) => setTimeout(resolve, pause));
      delay = Math.min(delay * 2, 5_000);
    }
  }
}

export async function probePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probeRedis(url: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    connectTimeout: PROBE_TIMEOUT_MS,
  });
  // ioredis rejects with "Connection is closed."; the 'error' event carries the reason (ECONNREFUSED...).
  let cause: Error | undefined;
  redis.on('error', (error: Error) => (cause ??= error));
  try {
    await redis.connect().catch((error: unknown) => {
      throw cause ?? error;
    });
    await redis.ping();
  } finally {
    redis.disconnect();
  }
}

/** The URL with its password hidden, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

function describe(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return describe(error.errors[0]);
  const text = error instanceof Error ? error.message || (error as { code?: string }).code || error.name : String(error);
  return text.replace(/\.+$/, '');
}
