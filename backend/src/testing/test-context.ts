import { afterAll, beforeAll } from '@jest/globals';
import type { Clock } from '../infra/clock/clock.js';
import { startTestApp, waitForJobs, type TestApp } from './test-app.js';
import { createTestDatabase, type TestDatabase } from './test-database.js';

/**
 * Stands for a value that exists only once the enclosing block's beforeAll has run: every
 * property read is forwarded to it, so a test file can name `db` and `t` at the top of a describe
 * block and use them in its tests and hooks as the real objects.
 */
function later<T extends object>(what: string, current: () => T | undefined): T {
  return new Proxy({} as T, {
    get(_target, property) {
      const value = current();
      if (value === undefined) throw new Error(`the test ${what} is used before its beforeAll ran (or after its afterAll)`);
      const member = Reflect.get(value, property, value) as unknown;
      return typeof member === 'function' ? (member as (...args: unknown[]) => unknown).bind(value) : member;
    },
    has: (_target, property) => {
      const value = current();
      return value !== undefined && property in value;
    },
  });
}

/**
 * Gives the enclosing describe block a database of its own for all its tests (copied from the
 * run's migrated template), dropped after them; the drop fails when a connection was left open.
 */
export function useTestDatabase(options: { queueSchema?: boolean } = {}): TestDatabase {
  let db: TestDatabase | undefined;
  beforeAll(async () => {
    db = await createTestDatabase(options);
  });
  afterAll(async () => {
    await db?.drop();
    db = undefined;
  });
  return later('database', () => db);
}

/**
 * Gives the enclosing describe block a database of its own and the web application on it (as
 * `startTestApp` builds it, with `env` on top of the test defaults) for all its tests; afterwards
 * closes the app (after the outbox's work is done, with `waitForJobs`) and drops the database.
 * Hooks the block declares after this call run after the app started and after it closed.
 */
export function useTestApp(
  env: Record<string, string | undefined> = {},
  options: { clock?: Clock; queueSchema?: boolean; waitForJobs?: boolean } = {},
): { db: TestDatabase; t: TestApp } {
  let db: TestDatabase | undefined;
  let t: TestApp | undefined;
  beforeAll(async () => {
    db = await createTestDatabase({ queueSchema: options.queueSchema });
    t = await startTestApp(db, env, { clock: options.clock });
  });
  afterAll(async () => {
    try {
      if (db && t && options.waitForJobs) await waitForJobs(db);
    } finally {
      await t?.close();
      await db?.drop();
      t = undefined;
      db = undefined;
    }
  });
  return { db: later('database', () => db), t: later('app', () => t) };
}
