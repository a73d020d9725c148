/** Thrown when a bounded wait runs out. */
export class TimeoutError extends Error {}

/** Resolves or rejects like `promise`, or rejects with TimeoutError after `ms`: every wait on another service is bounded. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(message)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
