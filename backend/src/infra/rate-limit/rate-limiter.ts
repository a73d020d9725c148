import { Inject, Injectable, Logger } from '@nestjs/common';
import { ThrottledLog } from '../../common/throttled-log.js';
import { TooManyRequestsException } from '../../common/errors.js';
import { RATE_LIMIT_STORE, type RateLimitStore } from './rate-limit-store.js';

export interface Limit {
  /** What is counted, e.g. `signin:ip:203.0.113.7`. */
  key: string;
  limit: number;
  windowSeconds: number;
}

/**
 * Limits of single routes over the shared counters. When the counters cannot be reached the
 * request goes through (and a warning is logged): an outage of the counters must not lock
 * everyone out.
 */
@Injectable()
export class RateLimiter {
  private readonly problems = new ThrottledLog(new Logger('RateLimit'), 60_000);

  constructor(@Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore) {}

  /** Counts one attempt; past the limit throws a 429 with Retry-After and `message(waitSeconds)`. */
  async consume({ key, limit, windowSeconds }: Limit, message: (waitSeconds: number) => string): Promise<void> {
    const hit = await this.store.hit(key, windowSeconds).catch((error: unknown) => this.unavailable(error));
    if (hit && hit.count > limit) throw new TooManyRequestsException(message(hit.resetSeconds), hit.resetSeconds);
  }

  /** Counts one attempt and says whether it is within the limit, for limits applied silently (nothing to tell the caller). */
  async allows({ key, limit, windowSeconds }: Limit): Promise<boolean> {
    const hit = await this.store.hit(key, windowSeconds).catch((error: unknown) => this.unavailable(error));
    return !hit || hit.count <= limit;
  }

  async reset(key: string): Promise<void> {
    await this.store.reset(key).catch((error: unknown) => this.unavailable(error));
  }

  private unavailable(error: unknown): undefined {
    this.problems.warn('store', `rate-limit store unavailable, limits are not being applied: ${String(error)}`);
    return undefined;
  }
}

/** "5 minutes", "1 minute", "40 seconds": for messages that say how long to wait. */
export function waitText(seconds: number): string {
  if (seconds >= 90) {
    const minutes = Math.ceil(seconds / 60);
    return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
