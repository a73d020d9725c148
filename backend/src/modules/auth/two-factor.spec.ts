import { describe, expect, it } from '@jest/globals';
import { generate } from 'otplib';
import pg from 'pg';
import { Browser, linkMailedTo, newPerson, signedInPerson, tokenOf, type Person } from '../../testing/accounts.js';
import { ControlledClock } from '../../testing/clock.js';
import { eventually } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';

const INVALID_CODE = 'Invalid verification code';
const CODE_USED = 'This code has already been used. Wait for the next code from your authenticator app.';
const TOO_MANY_CODES = /^Too many incorrect codes\. Please wait \d+ minutes? and try again\.$/;

describe('two-factor sign-in', () => {
  // The product checks codes against this clock, held in the middle of a 30 s step (so no test meets
  // a step's boundary) an hour before the machine's time (so codes follow the clock, not the machine).
  const clock = new ControlledClock();
  clock.set(new Date(Math.floor(Date.now() / 30_000) * 30_000 + 15_000 - 3600_000));
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300' }, { clock });

  /** A code of the current time step, or of the next one (accepted: clocks drift by a step). */
  const codeFor = (secret: string, step: 0 | 1 = 0) => generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) + step * 30 });

  /** A signed-in person with two-factor on; returns the secret and recovery codes too. */
  async function withTwoFactor(): Promise<{ browser: Browser; person: Person; secret: string; recoveryCodes: string[] }> {
    const { browser, person } = await signedInPerson(t);
    const setup = await browser.call('POST', '/api/profile/two-factor/setup');
    const { secret } = setup.json<{ data: { secret: string } }>().data;
    const verified = await browser.call('POST', '/api/profile/two-factor/verify', { token: await codeFor(secret) });
    expect(verified.statusCode).toBe(200);
    return { browser, person, secret, recoveryCodes: verified.json<{ data: { recovery_codes: string[] } }>().data.recovery_codes };
  }

  const signIn = async (person: Person, browser = new Browser(t)) => {
    const response = await browser.call('POST', '/api/auth/signin', { email: person.email, password: person.password });
    return { browser, response };
  };

  const me = async (browser: Browser) =>
    (await browser.call('GET', '/api/auth/me')).json<{ data: { user: unknown; two_factor_pending: boolean } }>().data;

  it('sets up with a QR code and a secret, and stays off until a code from the app is verified', async () => {
    const { browser } = await signedInPerson(t);
    const setup = await browser.call('POST', '/api/profile/two-factor/setup');
    expect(setup.statusCode).toBe(200);
    const { qrCode, secret, otpauthUrl } = setup.json<{ data: { qrCode: string; secret: string; otpauthUrl: string } }>().data;
    expect(qrCode).toMatch(/^data:image\/png;base64,/);
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect((await browser.call('GET', '/api/profile')).json()).toMatchObject({ data: { two_factor_enabled: false } });

    for (const [token, message] of [
      ['12345', 'Please enter a valid 6-digit code'],
      ['abcdef', 'Please enter a valid 6-digit code'],
      ['000000', INVALID_CODE],
    ]) {
      const refused = await browser.call('POST', '/api/profile/two-factor/verify', { token });
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([400, message]);
    }
  });

  it('turns on with a code, shows ten recovery codes once, and keeps the secret encrypted', async () => {
    const { browser, person, secret, recoveryCodes } = await withTwoFactor();
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    expect((await browser.call('GET', '/api/profile')).json()).toMatchObject({ data: { two_factor_enabled: true } });
    const [row] = await db.query<{ two_factor_secret: string }>('select two_factor_secret from app_user where email = $1', [person.email]);
    expect(row?.two_factor_secret).toMatch(/^v1:/);
    expect(row?.two_factor_secret).not.toContain(secret);
    const stored = await db.query<{ code_hash: string }>('select code_hash from recovery_code');
    for (const code of recoveryCodes) expect(JSON.stringify(stored)).not.toContain(code.replace('-', ''));
  });

  it('asks for a code after the password, in this browser only, and signs in with it', async () => {
    const { person, secret } = await withTwoFactor();
    const { browser, response } = await signIn(person);
    expect(response.json()).toEqual({ success: true, data: { status: 'two-factor-required' } });
    expect(response.cookies.map((c) => c.name)).toEqual(['fm_2fa']);
    expect(response.cookies[0]).toMatchObject({ httpOnly: true, path: '/api/auth' });
    expect(await me(browser)).toEqual({ user: null, two_factor_pending: true });
    expect(await me(new Browser(t))).toEqual({ user: null, two_factor_pending: false });

    const answered = await browser.call('POST', '/api/auth/two-factor/verify-login', { token: await codeFor(secret, 1) });
    expect(answered.statusCode).toBe(200);
    expect(answered.json()).toMatchObject({ data: { status: 'signed-in', user: { email: person.email, two_factor_enabled: true } } });
    expect(await me(browser)).toMatchObject({ user: { email: person.email }, two_factor_pending: false });
  });

  it('accepts a code once: the code that turned it on is refused at sign-in, saying to wait for the next', async () => {
    const { person, secret } = await withTwoFactor();
    const { browser } = await signIn(person);
    const replay = await browser.call('POST', '/api/auth/two-factor/verify-login', { token: await codeFor(secret) });
    expect([replay.statusCode, replay.json<{ error: string }>().error]).toEqual([400, CODE_USED]);
    const next = await browser.call('POST', '/api/auth/two-factor/verify-login', { token: await codeFor(secret, 1) });
    expect(next.statusCode).toBe(200);
  });

  it('accepts one code once even when it arrives twice at the same moment', async () => {
    const { person, secret } = await withTwoFactor();
    const [{ id }] = await db.query<{ id: string }>('select id from app_user where email = $1', [person.email]);
    const first = await signIn(person);
    const second = await signIn(person);
    const code = await codeFor(secret, 1);
    // Both requests read the account and check the code before either records it: the row is held
    // here, so each waits at the write that makes the code single-use, then they go on together.
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select id from app_user where id = $1 for update', [id]);
      const answers = Promise.all(
        [first.browser, second.browser].map((b) => b.call('POST', '/api/auth/two-factor/verify-login', { token: code })),
      );
      await eventually(async () => {
        const [{ waiting }] = await db.query<{ waiting: string }>(
          `select count(*) as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (Number(waiting) < 2) throw new Error(`${waiting} of the 2 verifications are waiting to record the code`);
      }, 10_000);
      await holder.query('commit');
      const statuses = (await answers).map((a) => [a.statusCode, a.statusCode === 200 ? 'signed in' : a.json<{ error: string }>().error]);
      expect(statuses.sort()).toEqual([
        [200, 'signed in'],
        [400, CODE_USED],
      ]);
    } finally {
      await holder.end();
    }
  });

  it('cannot be answered without the challenge of the browser that gave the password', async () => {
    const { person, secret } = await withTwoFactor();
    const [{ id }] = await db.query<{ id: string }>('select id from app_user where email = $1', [person.email]);
    await signIn(person); // a challenge exists, in another browser
    const attacker = new Browser(t);
    // The spec's {userId, token} shape: the user id is not how a challenge is found.
    const forged = await attacker.call('POST', '/api/auth/two-factor/verify-login', { userId: id, token: await codeFor(secret, 1) });
    expect(forged.statusCode).toBe(401);
    expect(forged.json<{ error: string }>().error).toBe('Your sign-in has expired. Please sign in again.');
    attacker.cookies = 'fm_2fa=forged-challenge-token-of-the-right-shape';
    expect((await attacker.call('POST', '/api/auth/two-factor/verify-login', { token: await codeFor(secret, 1) })).statusCode).toBe(401);
    expect(await me(attacker)).toMatchObject({ user: null });
  });

  it('ends the challenge after five wrong codes', async () => {
    const { person, secret } = await withTwoFactor();
    const { browser } = await signIn(person);
    const answers: number[] = [];
    for (let i = 0; i < 5; i++)
      answers.push((await browser.call('POST', '/api/auth/two-factor/verify-login', { token: '000000' })).statusCode);
    expect(answers).toEqual([400, 400, 400, 400, 429]);
    const right = await browser.call('POST', '/api/auth/two-factor/verify-login', { token: await codeFor(secret, 1) });
    expect(right.statusCode).toBe(401);
    expect(await me(browser)).toEqual({ user: null, two_factor_pending: false });
  });

  it('bounds the codes tried for one account across challenges: a correct password grants no new tries', async () => {
    const { person, secret } = await withTwoFactor();
    const statuses: number[] = [];
    // Four wrong codes per challenge (a fifth would end it), from a new address each time.
    for (let challenge = 0; challenge < 3; challenge++) {
      const { browser, response } = await signIn(person);
      expect(response.json()).toMatchObject({ data: { status: 'two-factor-required' } });
      for (let i = 0; i < 4; i++)
        statuses.push((await browser.call('POST', '/api/auth/two-factor/verify-login', { token: '000000' })).statusCode);
    }
    expect(statuses).toEqual([...Array(10).fill(400), 429, 429]);
    // The password is still right, but the right code now waits too, and the answer says for how long.
    const { browser } = await signIn(person);
    const right = await browser.call('POST', '/api/auth/two-factor/verify-login', { token: await codeFor(secret, 1) });
    expect([right.statusCode, right.json<{ error: string }>().error]).toEqual([429, expect.stringMatching(TOO_MANY_CODES)]);
    expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('bounds the codes tried from one address, whatever the account', async () => {
    const address = new Browser(t).ip;
    const statuses: number[] = [];
    for (let account = 0; account < 6; account++) {
      const { person } = await withTwoFactor();
      const { browser } = await signIn(person, new Browser(t, address));
      for (let i = 0; i < 4; i++)
        statuses.push((await browser.call('POST', '/api/auth/two-factor/verify-login', { token: '000000' })).statusCode);
    }
    expect(statuses).toEqual([...Array(20).fill(400), 429, 429, 429, 429]);
  });

  it('bounds the codes tried to turn two-factor off', async () => {
    const { browser, secret } = await withTwoFactor();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push((await browser.call('POST', '/api/profile/two-factor/disable', { token: '000000' })).statusCode);
    expect(statuses).toEqual([...Array(10).fill(400), 429]);
    const right = await browser.call('POST', '/api/profile/two-factor/disable', { token: await codeFor(secret, 1) });
    expect([right.statusCode, right.json<{ error: string }>().error]).toEqual([429, expect.stringMatching(TOO_MANY_CODES)]);
    expect((await browser.call('GET', '/api/profile/two-factor')).json()).toMatchObject({ data: { enabled: true } });
  });

  it('signs in once with each recovery code', async () => {
    const { person, recoveryCodes } = await withTwoFactor();
    const [code] = recoveryCodes as [string];
    const first = await signIn(person);
    const used = await first.browser.call('POST', '/api/auth/two-factor/verify-login', { recovery_code: code.toUpperCase() });
    expect(used.statusCode).toBe(200);
    const second = await signIn(person);
    const again = await second.browser.call('POST', '/api/auth/two-factor/verify-login', { recovery_code: code });
    expect([again.statusCode, again.json<{ error: string }>().error]).toEqual([400, INVALID_CODE]);
    expect((await first.browser.call('GET', '/api/profile/two-factor')).json()).toMatchObject({
      data: { enabled: true, recovery_codes_left: 9 },
    });
  });

  it('leaves the browser signed out when the challenge is cancelled', async () => {
    const { person } = await withTwoFactor();
    const { browser } = await signIn(person);
    const cancelled = await browser.call('POST', '/api/auth/two-factor/cancel');
    expect(cancelled.json()).toEqual({ success: true, data: { message: '2FA verification required for login' } });
    expect(await me(browser)).toEqual({ user: null, two_factor_pending: false });
  });

  it('still asks for the code after a password reset', async () => {
    const { person } = await withTwoFactor();
    await new Browser(t).call('POST', '/api/auth/password-reset', { email: person.email });
    const token = tokenOf(await linkMailedTo(t, person.email, '/reset-password'));
    await new Browser(t).call('POST', '/api/auth/password-reset/complete', { token, password: 'Freshly-reset-password-7' });
    const { response } = await signIn({ ...person, password: 'Freshly-reset-password-7' });
    expect(response.json()).toEqual({ success: true, data: { status: 'two-factor-required' } });
  });

  it('turns off with a code, after which the password alone signs in', async () => {
    const { browser, person, secret } = await withTwoFactor();
    const off = await browser.call('POST', '/api/profile/two-factor/disable', { token: await codeFor(secret, 1) });
    expect(off.json()).toEqual({ success: true, data: { message: 'Two-factor authentication disabled successfully!' } });
    expect((await signIn(person)).response.json()).toMatchObject({ data: { status: 'signed-in' } });
  });

  it('refuses every two-factor call for an account created through Google', async () => {
    const { browser, person } = await signedInPerson(t, newPerson('Gail Google'));
    await db.query(`update app_user set provider = 'google' where email = $1`, [person.email]);
    for (const [method, path, body] of [
      ['GET', '/api/profile/two-factor', undefined],
      ['POST', '/api/profile/two-factor/setup', undefined],
      ['POST', '/api/profile/two-factor/verify', { token: '123456' }],
      ['POST', '/api/profile/two-factor/disable', { token: '123456' }],
    ] as const) {
      const refused = await browser.call(method, path, body);
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([400, '2FA is not available for Google OAuth users']);
    }
  });
});
