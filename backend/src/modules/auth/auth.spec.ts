import { describe, expect, it } from '@jest/globals';
import { Browser, linkMailedTo, newPerson, signedInPerson, tokenOf } from '../../testing/accounts.js';
import { readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';

const SIGN_UP_SUCCESS = 'Account created successfully! Please check your email to verify your account.';
const WRONG_CREDENTIALS = 'Incorrect email or password.';

describe('accounts: sign-up, sign-in, sessions, links by e-mail', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300' });

  const mailsTo = async (email: string) => (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email);

  describe('POST /api/auth/signup', () => {
    it.each([
      ['name', 'Name is required', { name: '' }],
      ['email', 'Email is required', { email: '' }],
      ['email', 'Please enter a valid email address', { email: 'jane@farm' }],
      ['password', 'Password must be at least 6 characters long', { password: 'short' }],
      ['password', 'Password is required', { password: undefined }],
      ['password', 'Password must be text', { password: 123456789 }],
      ['name', 'Name must be on one line', { name: 'Jane\nFarmer' }],
      ['location', 'Location must be at most 100 characters', { location: 'x'.repeat(101) }],
    ])('refuses a bad %s with "%s" and creates nothing', async (field, message, change) => {
      const response = await new Browser(t).call('POST', '/api/auth/signup', { ...newPerson(), ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ success: false, fields: { [field]: message } });
      expect(await db.query(`select id from app_user where full_name = 'x'`)).toHaveLength(0);
    });

    it('refuses a password from the list of the most common ones', async () => {
      const person = newPerson();
      const response = await new Browser(t).call('POST', '/api/auth/signup', { ...person, password: 'Password1' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        fields: { password: 'This password is too common and appears in lists of leaked passwords. Please choose another.' },
      });
      expect(await db.query('select id from app_user where email = $1', [person.email])).toHaveLength(0);
    });

    it('creates the account, stores only an argon2id hash, and mails a confirmation link', async () => {
      const person = newPerson();
      const response = await new Browser(t).call('POST', '/api/auth/signup', {
        ...person,
        email: person.email.toUpperCase(),
        location: ' Devon ',
      });
      expect(response.statusCode).toBe(201);
      expect(response.json()).toEqual({ success: true, data: { message: SIGN_UP_SUCCESS } });
      const [row] = await db.query<{ email: string; password_hash: string; location: string; email_verified_at: Date | null }>(
        'select email, password_hash, location, email_verified_at from app_user where email = $1',
        [person.email],
      );
      expect(row).toMatchObject({ email: person.email, location: 'Devon', email_verified_at: null });
      expect(row?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(row?.password_hash).not.toContain(person.password);
      expect(await linkMailedTo(t, person.email, '/verify-email')).toMatch(/^http:\/\/localhost:3000\/verify-email\?token=/);
    });

    it('answers a repeated address exactly as a new one, and tells the owner instead', async () => {
      const { person } = await signedInPerson(t);
      const again = await new Browser(t).call('POST', '/api/auth/signup', {
        ...person,
        name: 'Someone Else',
        password: 'another-password-9',
      });
      expect(again.statusCode).toBe(201);
      expect(again.json()).toEqual({ success: true, data: { message: SIGN_UP_SUCCESS } });
      expect(await db.query('select id from app_user where email = $1', [person.email])).toHaveLength(1);
      await waitForJobs(db);
      expect((await mailsTo(person.email)).map((m) => m.subject)).toContain('You already have a Fieldmarket account');
    });

    it('creates one account when the same address signs up twice at once', async () => {
      const person = newPerson();
      const answers = await Promise.all([0, 1, 2].map(() => new Browser(t).call('POST', '/api/auth/signup', person)));
      expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
      expect(await db.query('select id from app_user where email = $1', [person.email])).toHaveLength(1);
    });
  });

  describe('e-mail confirmation', () => {
    it('confirms once; the link then, and any forged link, is refused with a clear message', async () => {
      const person = newPerson();
      const browser = new Browser(t);
      await browser.call('POST', '/api/auth/signup', person);
      const token = tokenOf(await linkMailedTo(t, person.email, '/verify-email'));
      expect((await browser.call('POST', '/api/auth/verify-email', { token })).statusCode).toBe(200);
      const [row] = await db.query<{ email_verified_at: Date | null }>('select email_verified_at from app_user where email = $1', [
        person.email,
      ]);
      expect(row?.email_verified_at).not.toBeNull();
      for (const again of [token, 'forged-token-of-the-right-shape-123456']) {
        const refused = await browser.call('POST', '/api/auth/verify-email', { token: again });
        expect(refused.statusCode).toBe(400);
        expect(refused.json<{ error: string }>().error).toBe(
          'This verification link is invalid or has expired. Sign in and request a new one from your profile.',
        );
      }
    });

    it('refuses an expired link', async () => {
      const person = newPerson();
      await new Browser(t).call('POST', '/api/auth/signup', person);
      const token = tokenOf(await linkMailedTo(t, person.email, '/verify-email'));
      await db.query(`update email_token set expires_at = now() - interval '1 second'`);
      expect((await new Browser(t).call('POST', '/api/auth/verify-email', { token })).statusCode).toBe(400);
    });
  });

  describe('sign-in and the session', () => {
    it('says the same about an unknown address and a wrong password', async () => {
      const { person } = await signedInPerson(t);
      const wrongPassword = await new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password: 'not-the-password' });
      const unknown = await new Browser(t).call('POST', '/api/auth/signin', {
        email: `nobody.${person.email}`,
        password: 'not-the-password',
      });
      for (const response of [wrongPassword, unknown]) {
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ success: false, error: WRONG_CREDENTIALS });
        expect(response.cookies).toHaveLength(0);
      }
    });

    it('keeps the session in an httpOnly, SameSite=Lax cookie that page script cannot read', async () => {
      const person = newPerson();
      await new Browser(t).call('POST', '/api/auth/signup', person);
      const response = await new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password: person.password });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({ data: { status: 'signed-in', user: { email: person.email, email_verified: false } } });
      const session = response.cookies.find((c) => c.name === 'fm_session');
      expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(session?.value).toMatch(/^[\w-]{43}$/);
      expect(response.cookies.find((c) => c.name === 'fm_signed_in')).toMatchObject({ value: '1', path: '/' });
      expect(response.cookies.find((c) => c.name === 'fm_signed_in')?.httpOnly).toBeFalsy();
      expect(response.body).not.toContain(session?.value);
      // Only the token's hash is stored.
      expect(await db.query('select id from user_session where token_hash = $1', [session?.value])).toHaveLength(0);
    });

    it('tells a visitor and a signed-in user apart at GET /api/auth/me', async () => {
      expect((await new Browser(t).call('GET', '/api/auth/me')).json()).toEqual({
        success: true,
        data: { user: null, two_factor_pending: false },
      });
      const { browser, person } = await signedInPerson(t);
      expect((await browser.call('GET', '/api/auth/me')).json()).toMatchObject({
        data: { user: { email: person.email, email_verified: true } },
      });
    });

    it('ends the session on the server at sign-out: the old cookie signs nothing in', async () => {
      const { browser } = await signedInPerson(t);
      const stolen = browser.cookies;
      expect((await browser.call('POST', '/api/auth/signout')).statusCode).toBe(200);
      const thief = new Browser(t);
      thief.cookies = stolen;
      expect((await thief.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
      const refresh = await thief.call('POST', '/api/auth/refresh');
      expect(refresh.statusCode).toBe(401);
      expect(refresh.json()).toEqual({ success: false, error: 'Session expired. Please sign in again.' });
    });

    it('refresh gives the session a new token and retires the old one', async () => {
      const { browser } = await signedInPerson(t);
      const before = browser.cookies;
      expect((await browser.call('POST', '/api/auth/refresh')).statusCode).toBe(200);
      expect(browser.cookies).not.toBe(before);
      expect((await browser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: { email_verified: true } } });
      const old = new Browser(t);
      old.cookies = before;
      expect((await old.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
    });

    it('refuses a state-changing call that carries the session but not the header the site sends', async () => {
      const { browser } = await signedInPerson(t);
      const forged = await browser.call('POST', '/api/auth/signout', undefined, { 'x-requested-with': '' });
      expect(forged.statusCode).toBe(403);
      expect(forged.json<{ error: string }>().error).toMatch(/X-Requested-With/);
      const foreign = await browser.call('POST', '/api/auth/signout', undefined, { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect((await browser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: { email_verified: true } } });
    });

    it('lists the sessions and ends the others; another account’s session id is not found', async () => {
      const a = await signedInPerson(t);
      const other = new Browser(t);
      await other.call('POST', '/api/auth/signin', { email: a.person.email, password: a.person.password });
      const listed = (await a.browser.call('GET', '/api/auth/sessions')).json<{ data: Array<{ id: string; current: boolean }> }>().data;
      expect(listed).toHaveLength(2);
      expect(listed.filter((s) => s.current)).toHaveLength(1);

      const b = await signedInPerson(t, newPerson('Bob Grazier'));
      const othersId = listed.find((s) => !s.current)?.id as string;
      const idor = await b.browser.call('DELETE', `/api/auth/sessions/${othersId}`);
      expect(idor.statusCode).toBe(404);
      expect((await other.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: { email: a.person.email } } });

      expect((await a.browser.call('DELETE', '/api/auth/sessions/others')).statusCode).toBe(200);
      expect((await other.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
      expect((await a.browser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: { email: a.person.email } } });
    });
  });

  describe('rate limits', () => {
    const TOO_MANY_SIGN_INS = /^Too many sign-in attempts\. Please wait \d+ minutes? and try again\.$/;

    it('stops one address guessing one account after ten attempts, even when they come at once', async () => {
      const { person } = await signedInPerson(t);
      const guesser = new Browser(t);
      const guesses = await Promise.all(
        Array.from({ length: 14 }, (_, i) =>
          guesser.call('POST', '/api/auth/signin', { email: person.email, password: `guess-${i}-abcdef` }),
        ),
      );
      expect(guesses.filter((g) => g.statusCode === 401)).toHaveLength(10);
      expect(guesses.filter((g) => g.statusCode === 429)).toHaveLength(4);
      // The right password from there waits too, and the answer says for how long.
      const right = await guesser.call('POST', '/api/auth/signin', { email: person.email, password: person.password });
      expect([right.statusCode, right.json<{ error: string }>().error]).toEqual([429, expect.stringMatching(TOO_MANY_SIGN_INS)]);
      expect(Number(right.headers['retry-after'])).toBeGreaterThan(0);
    });

    it('lets the owner sign in from their own address after strangers’ wrong guesses', async () => {
      const { person } = await signedInPerson(t);
      for (let i = 0; i < 12; i++) {
        const stranger = await new Browser(t, `10.200.0.${i + 1}`).call('POST', '/api/auth/signin', {
          email: person.email,
          password: `guess-${i}-abcdef`,
        });
        expect(stranger.statusCode).toBe(401);
      }
      const owner = await new Browser(t, '10.201.0.1').call('POST', '/api/auth/signin', { email: person.email, password: person.password });
      expect(owner.json()).toMatchObject({ data: { status: 'signed-in', user: { email: person.email } } });
    });

    it('stops guessing one account from rotating addresses after a hundred attempts in an hour, even when they come at once', async () => {
      const { person } = await signedInPerson(t);
      const guesses = await Promise.all(
        Array.from({ length: 104 }, (_, i) =>
          new Browser(t, `10.203.${Math.floor(i / 200)}.${(i % 200) + 1}`).call('POST', '/api/auth/signin', {
            email: person.email,
            password: `guess-${i}-abcdef`,
          }),
        ),
      );
      // The owner's own sign-in a moment ago was the first of the hundred.
      expect(guesses.filter((g) => g.statusCode === 401)).toHaveLength(99);
      expect(guesses.filter((g) => g.statusCode === 429)).toHaveLength(5);
      // Past that bound the right password from a new address waits too (docs/accounts.md says why).
      const owner = await new Browser(t, '10.204.0.1').call('POST', '/api/auth/signin', { email: person.email, password: person.password });
      expect([owner.statusCode, owner.json<{ error: string }>().error]).toEqual([429, expect.stringMatching(TOO_MANY_SIGN_INS)]);
    });

    it('stops one address trying many accounts', async () => {
      const browser = new Browser(t, '10.202.0.1');
      const statuses: number[] = [];
      for (let i = 0; i < 32; i++) {
        statuses.push(
          (await browser.call('POST', '/api/auth/signin', { email: `someone${i}@example.co.uk`, password: 'guess-abcdef' })).statusCode,
        );
      }
      expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(30)).toEqual([429, 429]);
    });
  });

  describe('password reset', () => {
    const RESET_ANSWER = {
      success: true,
      data: {
        message:
          'If an account exists for that address, we have sent it a link to reset the password. The link works once, within an hour.',
      },
    };

    it('answers the same for known and unknown addresses, and mails only the account', async () => {
      const { person } = await signedInPerson(t);
      const known = await new Browser(t).call('POST', '/api/auth/password-reset', { email: person.email });
      const unknown = await new Browser(t).call('POST', '/api/auth/password-reset', { email: `nobody.${person.email}` });
      expect([known.statusCode, known.json()]).toEqual([200, RESET_ANSWER]);
      expect([unknown.statusCode, unknown.json()]).toEqual([200, RESET_ANSWER]);
      await waitForJobs(db);
      expect(await mailsTo(`nobody.${person.email}`)).toHaveLength(0);
      expect((await mailsTo(person.email)).map((m) => m.subject)).toContain('Reset your Fieldmarket password');
    });

    it('sets the new password once, ends every session, and refuses the link after', async () => {
      const { browser, person } = await signedInPerson(t);
      await new Browser(t).call('POST', '/api/auth/password-reset', { email: person.email });
      const token = tokenOf(await linkMailedTo(t, person.email, '/reset-password'));
      // The page checks its link first; checking does not use it.
      for (let i = 0; i < 2; i++) {
        expect((await new Browser(t).call('POST', '/api/auth/password-reset/check', { token })).statusCode).toBe(200);
      }
      const reset = await new Browser(t).call('POST', '/api/auth/password-reset/complete', {
        token,
        password: 'A-new-password-for-spring',
      });
      expect(reset.statusCode).toBe(200);
      expect((await browser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
      expect((await new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password: person.password })).statusCode).toBe(
        401,
      );
      expect(
        (await new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password: 'A-new-password-for-spring' })).statusCode,
      ).toBe(200);
      for (const again of [token, 'forged-token-of-the-right-shape-123456']) {
        const refused = await new Browser(t).call('POST', '/api/auth/password-reset/complete', {
          token: again,
          password: 'Yet-another-one-42',
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json<{ error: string }>().error).toBe('Invalid reset link. Please request a new password reset.');
        const checked = await new Browser(t).call('POST', '/api/auth/password-reset/check', { token: again });
        expect(checked.statusCode).toBe(400);
        expect(checked.json<{ error: string }>().error).toBe('Invalid reset link. Please request a new password reset.');
      }
      const malformed = await new Browser(t).call('POST', '/api/auth/password-reset/check', { token: 'short' });
      expect(malformed.json<{ error: string }>()).toMatchObject({ error: 'Invalid reset link. Please request a new password reset.' });
      expect(malformed.statusCode).toBe(400);
    });

    it('sends one account at most three reset links an hour, saying the same to the asker', async () => {
      const { person } = await signedInPerson(t);
      for (let i = 0; i < 5; i++) {
        const answer = await new Browser(t).call('POST', '/api/auth/password-reset', { email: person.email });
        expect(answer.statusCode).toBe(200);
      }
      await waitForJobs(db);
      expect((await mailsTo(person.email)).filter((m) => m.subject === 'Reset your Fieldmarket password')).toHaveLength(3);
    });
  });
});
