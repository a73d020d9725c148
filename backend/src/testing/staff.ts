import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { generate } from 'otplib';
import { type Browser, type Person, signedInPerson } from './accounts.js';
import type { TestApp } from './test-app.js';
import type { TestDatabase } from './test-database.js';

const STAFF_COMMAND = fileURLToPath(new URL('../../dist/cli/staff.js', import.meta.url));

/** Runs the real `./fieldmarket staff <action> <email>` command (its compiled script) against the test database. */
export async function staffCommand(
  db: TestDatabase,
  action: string,
  email: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [STAFF_COMMAND, action, email], {
      env: { ...process.env, NODE_ENV: 'test', DATABASE_URL: db.url, LOG_LEVEL: 'error' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** Turns two-factor sign-in on for the signed-in browser's account, as the profile page does. */
export async function turnOnTwoFactor(browser: Browser): Promise<void> {
  const setup = await browser.call('POST', '/api/profile/two-factor/setup');
  const { secret } = setup.json<{ data: { secret: string } }>().data;
  const verified = await browser.call('POST', '/api/profile/two-factor/verify', { token: await generate({ secret }) });
  if (verified.statusCode !== 200) throw new Error(`two-factor verify failed: ${verified.body}`);
}

/** A signed-in member of staff: granted by the command, two-factor on. */
export async function staffMember(t: TestApp, db: TestDatabase): Promise<{ browser: Browser; person: Person; id: string }> {
  const member = await signedInPerson(t, db);
  const granted = await staffCommand(db, 'grant', member.person.email);
  if (granted.code !== 0) throw new Error(`staff grant failed: ${granted.stderr}`);
  await turnOnTwoFactor(member.browser);
  return member;
}
