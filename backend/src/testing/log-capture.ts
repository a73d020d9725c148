import { Logger, type LoggerService } from '@nestjs/common';

export interface LogLine {
  level: 'log' | 'error' | 'warn' | 'debug' | 'verbose' | 'fatal';
  text: string;
}

/**
 * Collects what the application logs from now on, at every level, until `restore` hands logging
 * back to `previous`. Install it after the app is created (Nest installs its own logger then).
 */
export function captureLogs(previous: LoggerService): { lines: LogLine[]; restore(): void } {
  const lines: LogLine[] = [];
  const record =
    (level: LogLine['level']) =>
    (...args: unknown[]) =>
      lines.push({ level, text: args.map((a) => (a instanceof Error ? (a.stack ?? a.message) : String(a))).join(' ') });
  Logger.overrideLogger({
    log: record('log'),
    error: record('error'),
    warn: record('warn'),
    debug: record('debug'),
    verbose: record('verbose'),
    fatal: record('fatal'),
  });
  return { lines, restore: () => Logger.overrideLogger(previous) };
}
