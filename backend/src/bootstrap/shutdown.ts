import type { Logger } from '@nestjs/common';
import { flushLogs } from './logger.js';

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
