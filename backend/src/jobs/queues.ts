/**
 * The queues background work runs on, with the settings of each. A subscriber or scheduled job
 * names its queue; concurrency is per worker process.
 */
export const QUEUES = {
  /** Many light jobs that wait on SMTP. */
  mail: { concurrency: 8 },
  /** Light, quick work for people waiting on it: live updates, notifications. */
  notifications: { concurrency: 8 },
  /**
   * Few heavy jobs (sharp resizing). Two at once: one photo's encodes leave a core idle while it
   * decodes and resizes, and eight photos are ready in about a second less (bench/images.mjs).
   */
  images: { concurrency: 2 },
  /** Periodic housekeeping (purges, expiry) and removing a deleted account's data. */
  maintenance: { concurrency: 1 },
} as const satisfies Record<string, { concurrency: number }>;

export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

/**
 * Retries: exponential back-off from 2 s, capped at 30 min, 25 attempts, so a job survives an
 * outage of about 7.5 hours (an SMTP server down for a night) before it stops retrying. A job
 * that fails for good is kept (and its outbox entry marked failed) so operators can re-drive it.
 */
export const RETRY = { attempts: 25, firstDelayMs: 2_000, maxDelayMs: 30 * 60_000 } as const;

export function retryDelayMs(attemptsMade: number): number {
  return Math.min(RETRY.firstDelayMs * 2 ** Math.max(0, attemptsMade - 1), RETRY.maxDelayMs);
}

export const JOB_OPTIONS = {
  attempts: RETRY.attempts,
  backoff: { type: 'capped-exponential' },
  removeOnComplete: { age: 24 * 3600, count: 1_000 },
  removeOnFail: false,
} as const;
