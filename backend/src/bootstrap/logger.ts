import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import type { AppConfig } from '../config/env.js';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];

/** Nest's console logger limited to LOG_LEVEL and everything more severe; JSON lines in production unless a person is watching. */
export function createLogger(config: AppConfig): ConsoleLogger {
  const levels = LEVELS.slice(0, LEVELS.indexOf(config.logLevel) + 1);
  return new ConsoleLogger({ logLevels: levels, json: config.nodeEnv === 'production' && !process.stdout.isTTY, colors: false });
}
