import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { APIRequestContext } from '@playwright/test';
import { generate } from 'otplib';
import { expect } from './fixtures.js';
import { productUnderTest } from './product.js';
import { PASSWORD, signUpVerified, SITE } from './sellers.js';

const ROOT = resolve(import.meta.dirname, '..', '..');

/** `./fieldmarket staff grant <email>`, on the running product's embedded database (as an operator types it). */
export async function grantStaff(email: string): Promise<string> {
  const { stdout } = await promisify(execFile)('./fieldmarket', ['staff', 'grant', email], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: '',
      DATA_DIR: productUnderTest().dataDir,
      EMBEDDED_PG_PORT: String(productUnderTest().embeddedPostgresPort),
    },
  });
  return stdout;
}

/** Turns two-factor on in this session (which so passes the second factor); returns the recovery codes. */
export async function turnOnTwoFactor(request: APIRequestContext): Promise<string[]> {
  const setup = await request.post('/api/profile/two-factor/setup', { headers: SITE });
  const { secret } = ((await setup.json()) as { data: { secret: string } }).data;
  const verified = await request.post('/api/profile/two-factor/verify', { headers: SITE, data: { token: await generate({ secret }) } });
  expect(verified.ok()).toBe(true);
  return ((await verified.json()) as { data: { recovery_codes: string[] } }).data.recovery_codes;
}

/** Signs in again (the staff command signs the account out everywhere), with a recovery code when two-factor is on. */
export async function signInAgain(request: APIRequestContext, email: string, recoveryCode?: string): Promise<void> {
  const signedIn = await request.post('/api/auth/signin', { headers: SITE, data: { email, password: PASSWORD } });
  expect(signedIn.ok()).toBe(true);
  if (recoveryCode === undefined) return;
  const answered = await request.post('/api/auth/two-factor/verify-login', { headers: SITE, data: { recovery_code: recoveryCode } });
  expect(answered.ok()).toBe(true);
}

/** Makes the person of `request` a member of staff as one becomes staff: signed up, granted by the command, signed in again, two-factor on. */
export async function becomeStaff(request: APIRequestContext, name = 'Stella Staff'): Promise<void> {
  const { email } = await signUpVerified(request, name);
  await grantStaff(email);
  await signInAgain(request, email);
  await turnOnTwoFactor(request);
}
