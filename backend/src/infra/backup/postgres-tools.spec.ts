import { describe, expect, it } from '@jest/globals';
import { BackupError, findPostgresTool } from './postgres-tools.js';

describe('the PostgreSQL client tools a backup needs', () => {
  // The embedded PostgreSQL ships no pg_dump, and a client older than the server refuses to dump it:
  // the operator is told exactly what to install instead of seeing pg_dump's own refusal.
  it('refuses, naming the package to install, when no client is as new as the server', async () => {
    const refusal = findPostgresTool('pg_dump', 99);
    await expect(refusal).rejects.toBeInstanceOf(BackupError);
    await expect(refusal).rejects.toThrow(/^pg_dump 99 or newer is needed \(the database server is PostgreSQL 99\); /);
    await expect(refusal).rejects.toThrow(
      /Install the PostgreSQL 99 client tools and run the command again: on Debian or Ubuntu the package postgresql-client-99/,
    );
  });

  // (The machines that run these tests have PostgreSQL's Debian packages, client tools included.)
  it('finds a client at least as new as the server, with its version', async () => {
    const tool = await findPostgresTool('pg_dump', 10);
    expect(tool.major).toBeGreaterThanOrEqual(10);
    expect(tool.version).toMatch(/^pg_dump \(PostgreSQL\) \d+/);
  });
});
