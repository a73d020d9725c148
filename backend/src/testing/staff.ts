import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import { runStaffCommand } from '../cli/staff-command.js';
import { Browser, type Person, signedInPerson } from './accounts.js';
import type { TestApp } from './test-app.js';
import type { TestDatabase } from './test-database.js';

const STAFF_COMMAND = fileURLToPath(new URL('../../dist/cli/staff.js', import.meta.url));

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `./fieldmarket staff <action> <email>` against the test database: the command's own code
 * (runStaffCommand, which the script runs with the process's arguments), in this process, so a
 * test pays no Node start per grant. `staffCommandProcess` runs the compiled script itself.
 */
export async function staffCommand(db: TestDatabase, action: string, email: string): Promise<CommandResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const code = await runStaffCommand([action, email], commandEnv(db), {
    out: (line) => stdout.push(`${line}\n`),
    error: (line) => stderr.push(`${line}\n`),
  });
  return { code, stdout: stdout.join(''), stderr: stderr.join('') };
}

/** Runs the real `./fieldmarket staff <action> <email>` command (its compiled script) as a process of its own. */
export async function staffCommandProcess(db: TestDatabase, action: string, email: string): Promise<CommandResult> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [STAFF_COMMAND, action, email], { env: commandEnv(db) });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

const commandEnv = (db: TestDatabase) => ({ ...process.env, NODE_ENV: 'test', DATABASE_URL: db.url, LOG_LEVEL: 'error' });

/** Turns two-factor sign-in on for the signed-in browser's account, as the profile page does; returns the recovery codes. */
export async function turnOnTwoFactor(browser: Browser): Promise<string[]> {
  const setup = await browser.call('POST', '/api/profile/two-factor/setup');
  const { secret } = setup.json<{ data: { secret: string } }>().data;
  const verified = await browser.call('POST', '/api/profile/two-factor/verify', { token: await generate({ secret }) });
  if (verified.statusCode !== 200) throw new Error(`two-factor verify failed: ${verified.body}`);
  return verified.json<{ data: { recovery_codes: string[] } }>().data.recovery_codes;
}

/** A signed-in person (address confirmed) who turned two-factor sign-in on in that session; with their recovery codes. */
export async function twoFactorPerson(t: TestApp): Promise<{ browser: Browser; person: Person; id: string; recoveryCodes: string[] }> {
  const member = await signedInPerson(t);
  return { ...member, recoveryCodes: await turnOnTwoFactor(member.browser) };
}

/**
 * Signs in in a new browser with the password, then, when `recoveryCodes` are given, answers the
 * two-factor challenge with the next of them (a code from the app works once per 30 s step; a test
 * may sign in more often).
 */
export async function signIn(t: TestApp, person: Person, recoveryCodes?: string[]): Promise<Browser> {
  const browser = new Browser(t);
  const signedIn = await browser.call('POST', '/api/auth/signin', { email: person.email, password: person.password });
  if (signedIn.statusCode !== 200) throw new Error(`sign-in failed: ${signedIn.body}`);
  if (recoveryCodes === undefined) return browser;
  const answered = await browser.call('POST', '/api/auth/two-factor/verify-login', { recovery_code: recoveryCodes.shift() });
  if (answered.statusCode !== 200) throw new Error(`two-factor sign-in failed: ${answered.body}`);
  return browser;
}

/**
 * A signed-in member of staff, as one becomes staff: granted by the command (which ends their
 * sessions), signed in again, two-factor turned on in that session.
 */
export async function staffMember(
  t: TestApp,
  db: TestDatabase,
): Promise<{ browser: Browser; person: Person; id: string; recoveryCodes: string[] }> {
  const member = await signedInPerson(t);
  const granted = await staffCommand(db, 'grant', member.person.email);
  if (granted.code !== 0) throw new Error(`staff grant failed: ${granted.stderr}`);
  const browser = await signIn(t, member.person);
  return { ...member, browser, recoveryCodes: await turnOnTwoFactor(browser) };
}
