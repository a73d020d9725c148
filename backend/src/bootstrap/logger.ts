import type { LoggerService, LogLevel } from '@nestjs/common';
import { isatty } from 'node:tty';
import { inspect } from 'node:util';
import type { AppConfig } from '../config/env.js';
import { AsyncLineWriter } from './log-writer.js';

const LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'log', 'debug', 'verbose'];
const TO_STDERR: ReadonlySet<LogLevel> = new Set(['fatal', 'error']);
const STACK_TRACE = /^.+\n\s+at .+:\d+:\d+/s;

/** Extra fields of a structured record (JSON mode); readable lines show only the message. */
export type LogFields = Record<string, string | number | boolean | undefined>;

interface ProcessLogWriters {
  stdout: AsyncLineWriter;
  stderr: AsyncLineWriter;
}

/**
 * One pair of writers per process, even when this module is loaded more than once (jest loads
 * it once per test file), so lines keep their order and one `exit` listener flushes them all.
 */
const WRITERS = Symbol.for('fieldmarket.logWriters');

function processWriters(json: boolean): ProcessLogWriters {
  const holder = process as unknown as { [WRITERS]?: ProcessLogWriters };
  if (!holder[WRITERS]) {
    const dropNotice = (count: number) => format(json, 'warn', 'Logger', `${count} log lines dropped: the log reader fell behind`);
    const writers = { stdout: new AsyncLineWriter(1, dropNotice), stderr: new AsyncLineWriter(2, dropNotice) };
    // process.exit() runs no more asynchronous work: whatever is still queued goes out synchronously.
    process.on('exit', () => {
      writers.stdout.flushSync();
      writers.stderr.flushSync();
    });
    holder[WRITERS] = writers;
  }
  return holder[WRITERS];
}

/** Resolves once every line logged so far has been written; call before process.exit(). */
export async function flushLogs(): Promise<void> {
  const writers = (process as unknown as { [WRITERS]?: ProcessLogWriters })[WRITERS];
  await Promise.all([writers?.stdout.drained(), writers?.stderr.drained()]);
}

/**
 * The process's logger, for Nest (Logger.overrideLogger, NestFactory's `logger`) and the access
 * log: LOG_LEVEL and everything more severe; JSON lines in production unless a person is
 * watching (stdout is a terminal), readable lines otherwise. Lines are written asynchronously
 * (AsyncLineWriter), errors to stderr, everything else to stdout.
 */
export class AppLogger implements LoggerService {
  private readonly enabled: ReadonlySet<LogLevel>;
  private readonly writers: ProcessLogWriters;

  constructor(
    level: AppConfig['logLevel'],
    private readonly json: boolean,
  ) {
    this.enabled = new Set(LEVELS.slice(0, LEVELS.indexOf(level) + 1));
    this.writers = processWriters(json);
  }

  isEnabled(level: LogLevel): boolean {
    return this.enabled.has(level);
  }

  /** One record: `message` from `context`, with `fields` added to the JSON record. */
  write(level: LogLevel, context: string | undefined, message: string, fields?: LogFields, stack?: string): void {
    if (!this.enabled.has(level)) return;
    const line = format(this.json, level, context, message, fields, stack);
    (TO_STDERR.has(level) ? this.writers.stderr : this.writers.stdout).write(line);
  }

  log(message: unknown, ...params: unknown[]): void {
    this.print('log', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.print('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.print('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.print('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.print('verbose', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.print('fatal', message, params);
  }

  /**
   * Nest's calling convention: the context comes last (Nest's Logger adds it); error and fatal
   * may carry a stack trace before it, or an Error as the message.
   */
  private print(level: LogLevel, message: unknown, params: unknown[]): void {
    if (!this.enabled.has(level)) return;
    const rest = [...params];
    const withStack = TO_STDERR.has(level);
    const last = rest.at(-1);
    const context =
      typeof last === 'string' && (rest.length > 1 || !withStack || !STACK_TRACE.test(last)) ? (rest.pop() as string) : undefined;
    let stack = withStack && typeof rest[0] === 'string' ? (rest.shift() as string) : undefined;
    let text: string;
    if (message instanceof Error) {
      text = message.message;
      stack ??= message.stack;
    } else {
      text = typeof message === 'string' ? message : inspect(message, { depth: 5, breakLength: Infinity });
    }
    for (const extra of rest) {
      if (extra !== undefined) text += ` ${typeof extra === 'string' ? extra : inspect(extra, { depth: 5, breakLength: Infinity })}`;
    }
    this.write(level, context, text, undefined, stack);
  }
}

function format(json: boolean, level: LogLevel, context: string | undefined, message: string, fields?: LogFields, stack?: string): string {
  if (json) return jsonLine(level, context, message, fields, stack);
  const where = context ? ` [${context}]` : '';
  return `${new Date().toISOString()} ${level.toUpperCase().padStart(7)}${where} ${message}\n${stack ? `${stack}\n` : ''}`;
}

/**
 * The JSON record, written out field by field: one is written per API request (the access log), and
 * building a record object for JSON.stringify was most of its cost. Fields come after the fixed ones and
 * must not repeat their names.
 */
function jsonLine(level: LogLevel, context: string | undefined, message: string, fields?: LogFields, stack?: string): string {
  let line = `{"level":"${level}","pid":${process.pid},"timestamp":${Date.now()},"message":${jsonString(message)}`;
  if (context !== undefined) line += `,"context":${jsonString(context)}`;
  for (const name in fields) {
    const value = fields[name];
    if (value === undefined) continue;
    const text =
      typeof value === 'string' ? jsonString(value) : typeof value === 'number' && !Number.isFinite(value) ? 'null' : String(value);
    line += `,${jsonString(name)}:${text}`;
  }
  if (stack !== undefined) line += `,"stack":${jsonString(stack)}`;
  return `${line}}\n`;
}

/** Text JSON needs no escapes in (no quote, backslash, control character or lone surrogate half). */
// eslint-disable-next-line no-control-regex -- control characters are what JSON must escape
const PLAIN_TEXT = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
const jsonString = (text: string) => (PLAIN_TEXT.test(text) ? `"${text}"` : JSON.stringify(text));

/** JSON lines in production unless stdout is a terminal; readable lines in development, tests and terminals. */
export function createLogger(config: Pick<AppConfig, 'logLevel' | 'nodeEnv'>): AppLogger {
  return new AppLogger(config.logLevel, config.nodeEnv === 'production' && !isatty(1));
}
