import type { Logger } from '@nestjs/common';
import { flushLogs } from './logger.js';

/**
 * However long the parts take (a queue backend that is down, a job that will not finish), the
 * process is gone within this time of the signal; each part bounds its own wait well inside it.
 */
export const SHUTDOWN_GRACE_MS = 20_000;

/** How long requests being answered are given to finish (drainRequests), well inside the grace period. */
export const REQUEST_DRAIN_MS = 10_000;

/** Runs `close` once on SIGTERM or SIGINT, then exits once the log is written; a second signal exits at once. */
export function onShutdownSignal(logger: Logger, close: () => Promise<void>): void {
  let closing = false;
  const handle = (signal: NodeJS.Signals) => {
    if (closing) {
      logger.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    logger.log(`${signal} received: finishing in-flight work`);
    const deadline = setTimeout(() => {
      logger.error(
        `shutdown took longer than ${SHUTDOWN_GRACE_MS / 1000} s; exiting with work unfinished (it runs again at the next start)`,
      );
      void flushLogs().then(() => process.exit(1));
    }, SHUTDOWN_GRACE_MS);
    deadline.unref();
    close().then(
      () => flushLogs().then(() => process.exit(0)),
      (error: unknown) => {
        logger.error(`shutdown failed: ${String(error)}`);
        void flushLogs().then(() => process.exit(1));
      },
    );
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
