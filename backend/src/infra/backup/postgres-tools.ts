import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A backup or restore that cannot go ahead, with what to do about it. */
export class BackupError extends Error {}

export interface PostgresTool {
  path: string;
  major: number;
  version: string;
}

/**
 * `pg_dump` or `pg_restore` of a major version at least `minimumMajor` (a client older than the
 * server refuses to dump it), the newest found on PATH or in Debian's /usr/lib/postgresql/<n>/bin.
 * The embedded PostgreSQL ships neither: without one recent enough the message says what to install.
 */
export async function findPostgresTool(
  name: 'pg_dump' | 'pg_restore' | 'psql',
  minimumMajor: number,
  preferredDir?: string,
): Promise<PostgresTool> {
  const candidates = new Set<string>();
  // (psql from the folder pg_restore came from, when it is there: the same release.)
  if (preferredDir && existsSync(join(preferredDir, name))) {
    const preferred = await versionOf(join(preferredDir, name));
    if (preferred && preferred.major >= minimumMajor) return preferred;
  }
  for (const dir of (process.env.PATH ?? '').split(delimiter).filter(Boolean)) candidates.add(join(dir, name));
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) for (const version of readdirSync(debian)) candidates.add(join(debian, version, 'bin', name));
  const found: PostgresTool[] = [];
  for (const path of candidates) {
    const tool = existsSync(path) ? await versionOf(path) : undefined;
    if (tool) found.push(tool);
  }
  found.sort((a, b) => b.major - a.major);
  const best = found[0];
  if (best && best.major >= minimumMajor) return best;
  const seen = best ? `the newest found is ${best.major} (${best.path})` : `none was found on PATH or in /usr/lib/postgresql/*/bin`;
  throw new BackupError(
    `${name} ${minimumMajor} or newer is needed (the database server is PostgreSQL ${minimumMajor}); ${seen}. ` +
      `Install the PostgreSQL ${minimumMajor} client tools and run the command again: on Debian or Ubuntu the package ` +
      `postgresql-client-${minimumMajor} (from the PostgreSQL project's own apt repository, PGDG, when the distribution's ` +
      `release does not carry it), on macOS \`brew install postgresql@${minimumMajor}\`. ${name} is found on PATH or in /usr/lib/postgresql/<version>/bin.`,
  );
}

async function versionOf(path: string): Promise<PostgresTool | undefined> {
  const version = await run(path, ['--version']).then(
    ({ stdout }) => stdout.trim(),
    () => undefined,
  );
  const major = Number(/\(PostgreSQL\)\s+(\d+)/.exec(version ?? '')?.[1]);
  return version && Number.isInteger(major) ? { path, major, version } : undefined;
}

/**
 * Runs a PostgreSQL client tool on the database at `url`; its error output becomes the error's
 * message. The password goes in the environment, never on the command line (other users can read that).
 */
export async function runPostgresTool(tool: PostgresTool, url: string | undefined, args: string[]): Promise<void> {
  const target = url ? new URL(url) : undefined;
  const password = target ? decodeURIComponent(target.password) : '';
  if (target) target.password = '';
  try {
    await run(tool.path, [...(target ? [`--dbname=${target.toString()}`] : []), ...args], {
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
    });
  } catch (error) {
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new BackupError(`${tool.path} failed: ${stderr || (error as Error).message}`);
  }
}
