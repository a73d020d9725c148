import type { Logger } from '@nestjs/common';

/**
 * Logs a recurring problem (a dependency that is down and retried every second) once per
 * interval per source, with a count of what was held back, so an outage does not flood the log.
 */
export class ThrottledLog {
  private readonly last = new Map<string, { at: number; suppressed: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs: number,
  ) {}

  warn(source: string, message: string): void {
    const now = Date.now();
    const entry = this.last.get(source);
    if (entry && now - entry.at < this.intervalMs) {
      entry.suppressed++;
      return;
    }
    const held = entry?.suppressed ? ` (${entry.suppressed} similar messages held back)` : '';
    this.last.set(source, { at: now, suppressed: 0 });
    this.logger.warn(`${message}${held}`);
  }
}
