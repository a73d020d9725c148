import {
  ConnectionException,
  DeadlockException,
  LockWaitTimeoutException,
  NotFoundError,
  UniqueConstraintViolationException,
} from '@mikro-orm/core';
import { HttpStatus } from '@nestjs/common';

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again shortly.';
export const NUL_MESSAGE = 'Text must not contain NUL characters';

/**
 * Network failures, and PostgreSQL's connection exceptions (class 08 but 08P01, a protocol
 * violation: see isNulRefusal), shutdowns (57P0x) and "too many connections".
 */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);
const UNAVAILABLE_SQL_STATES = /^(08(?!P01)...|57P0[123]|53300)$/;
/** Failures pg and ioredis report by message only. */
const UNAVAILABLE_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'timeout exceeded when trying to connect',
  'Connection is closed.',
  // The database closed under a request still running when a stopping process's drain time ran out.
  'driver has already been destroyed',
  'Cannot use a pool after calling end on the pool',
];

/**
 * What a request met in the database or the queue, as an answer for the client: a row that is
 * not there (findOneOrFail) is a 404, a duplicate a 409, text PostgreSQL cannot store a 400, and
 * a dependency that cannot be reached (or a deadlock worth retrying) a 503. Undefined for
 * anything else, which stays a logged 500.
 */
export function dependencyErrorAnswer(error: unknown): [HttpStatus, string] | undefined {
  if (error instanceof NotFoundError) return [HttpStatus.NOT_FOUND, notFoundMessage(error.message)];
  if (error instanceof UniqueConstraintViolationException) return [HttpStatus.CONFLICT, duplicateMessage(error)];
  if (isNulRefusal(error)) return [HttpStatus.BAD_REQUEST, `${NUL_MESSAGE}.`];
  if (isUnavailable(error)) return [HttpStatus.SERVICE_UNAVAILABLE, UNAVAILABLE_MESSAGE];
  return undefined;
}

/** "ContactMessage not found ({ id: 1 })" → "Contact message not found": the query stays in the logs. */
function notFoundMessage(message: string): string {
  const entity = /^(\w+) not found/.exec(message)?.[1];
  return entity ? `${sentence(entity)} not found` : 'Not found';
}

/** "Key (slug)=(land) already exists." on table "category" → "A category with this slug already exists." */
function duplicateMessage(error: UniqueConstraintViolationException & { table?: string; detail?: string }): string {
  const columns = /^Key \(([^)]+)\)=/.exec(error.detail ?? '')?.[1];
  const what = error.table ? error.table.replaceAll('_', ' ') : 'record';
  return columns ? `A ${what} with this ${columns.replaceAll('_', ' ')} already exists.` : `This ${what} already exists.`;
}

const sentence = (name: string) => name.replace(/(?<=[a-z])([A-Z])/g, (letter: string) => ` ${letter.toLowerCase()}`);

/**
 * PostgreSQL refuses U+0000: in a query parameter the server reports a protocol violation
 * ("invalid message format", 08P01), in text or JSON values 22021 or 22P05.
 */
function isNulRefusal(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof message !== 'string') return false;
  if (code === '08P01') return message.startsWith('invalid message format');
  return (code === '22021' || code === '22P05') && /0x00|\\u0000/.test(message);
}

export function isUnavailable(error: unknown): boolean {
  // Drivers wrap the network error, sometimes more than once: follow `cause` a few levels.
  // Duck-typed, not `instanceof Error`: Node's network errors may come from another realm.
  for (let current = error, depth = 0; typeof current === 'object' && current !== null && depth < 5; depth++) {
    if (current instanceof ConnectionException || current instanceof DeadlockException || current instanceof LockWaitTimeoutException) {
      return true;
    }
    const { code, name, message, cause } = current as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQL_STATES.test(code))) return true;
    if (name === 'MaxRetriesPerRequestError') return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.startsWith(text))) return true;
    current = cause;
  }
  return false;
}
