import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { GOOGLE_SIGN_IN_ERRORS } from '../../../contracts/account.js';
import { Browser, newPerson, signedInPerson } from '../../../testing/accounts.js';
import { FakeGoogle, type GoogleAccount, newGoogleAccount } from '../../../testing/google.js';
import { readOutbox, startTestApp, waitForJobs, type TestApp } from '../../../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../../testing/test-database.js';
import { useTestApp } from '../../../testing/test-context.js';

const CALLBACK_URL = 'http://localhost:3000/api/auth/google/callback';
const TWO_FACTOR_NOT_FOR_GOOGLE = '2FA is not available for Google OAuth users';
const REAUTH_FIRST = 'For your security, sign in with Google again, then delete the account within 5 minutes.';

interface Me {
  user: { id: string; email: string; full_name: string; avatar_url: string | null; email_verified: boolean; provider: string } | null;
  two_factor_pending: boolean;
}

describe('Google sign-in (against a local OAuth 2.0 / OpenID Connect server)', () => {
  let db: TestDatabase;
  let google: FakeGoogle;
  let t: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    google = new FakeGoogle(CALLBACK_URL);
    await google.start();
    t = await startTestApp(db, { OUTBOX_POLL_SECONDS: '300', ...google.env() });
  });
  afterAll(async () => {
    await t?.close();
    await google?.stop();
    await db?.drop();
  });

  /** The browser starts at /api/auth/google; the app's answer, which should send it to Google. */
  async function start(browser: Browser, query = ''): Promise<LightMyRequestResponse> {
    return browser.call('GET', `/api/auth/google${query}`);
  }

  /** The whole round trip: start, `person` consents at Google, the browser comes back to the callback. */
  async function viaGoogle(browser: Browser, person: GoogleAccount | null, query = ''): Promise<LightMyRequestResponse> {
    const started = await start(browser, query);
    expect(started.statusCode).toBe(302);
    return browser.call('GET', await google.consent(started.headers.location as string, person));
  }

  const me = async (browser: Browser) => (await browser.call('GET', '/api/auth/me')).json<{ data: Me }>().data;
  const userRow = async (email: string) =>
    (
      await db.query<{ id: string; provider: string; google_subject: string | null; password_hash: string | null }>(
        'select id, provider, google_subject, password_hash, email_verified_at, full_name, avatar_url from app_user where email = $1',
        [email],
      )
    )[0];
  const sessionCookie = (response: LightMyRequestResponse) => response.cookies.find((c) => c.name === 'fm_session' && c.value);

  describe('starting', () => {
    it('says Google sign-in is available', async () => {
      const response = await new Browser(t).call('GET', '/api/auth/providers');
      expect(response.json()).toEqual({ success: true, data: { google: true } });
    });

    it('sends the browser to Google with a fresh state bound to it by an httpOnly cookie, and the scopes and prompt asked for', async () => {
      const browser = new Browser(t);
      const response = await start(browser, '?redirect=/messages');
      expect(response.statusCode).toBe(302);
      const location = new URL(response.headers.location as string);
      expect(`${location.origin}${location.pathname}`).toBe(`${google.url}/authorize`);
      const params = Object.fromEntries(location.searchParams);
      expect(params).toMatchObject({
        client_id: google.clientId,
        redirect_uri: CALLBACK_URL,
        response_type: 'code',
        scope: 'openid email profile',
        prompt: 'consent',
        access_type: 'offline',
      });
      expect(params.state).toMatch(/^[\w-]{43}$/);
      // The route after sign-in stays with the browser; Google never sees it.
      expect(location.href).not.toContain('messages');
      const cookie = response.cookies.find((c) => c.name === 'fm_google');
      expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/auth/google' });
      expect(response.headers['cache-control']).toBe('no-store');

      const again = new URL((await start(browser)).headers.location as string);
      expect(again.searchParams.get('state')).not.toBe(params.state);
    });
  });

  describe('signing in', () => {
    it('creates an account for a new Google user, verified, without a password, and signs it in where it asked to go', async () => {
      const person = newGoogleAccount({ name: 'Gwen  Grower\n' });
      const browser = new Browser(t);
      const back = await viaGoogle(browser, person, '?redirect=/listing/42%3Ftab%3Dphotos');
      expect(back.statusCode).toBe(302);
      expect(back.headers.location).toBe('/listing/42?tab=photos');
      expect(sessionCookie(back)).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(await me(browser)).toEqual({
        user: expect.objectContaining({
          email: person.email,
          full_name: 'Gwen Grower',
          avatar_url: person.picture,
          email_verified: true,
          provider: 'google',
        }),
        two_factor_pending: false,
      });
      expect(await userRow(person.email!)).toMatchObject({ google_subject: person.sub, password_hash: null });
      // Google confirmed the address: no confirmation mail.
      await waitForJobs(db);
      expect((await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === person.email)).toEqual([]);
    });

    it('creates an unconfirmed account when Google has not verified the address, names it from the address, and mails a link', async () => {
      const person = newGoogleAccount({ email_verified: false, name: undefined, picture: 'http://insecure.example/me.png' });
      const browser = new Browser(t);
      expect((await viaGoogle(browser, person)).headers.location).toBe('/browse');
      expect((await me(browser)).user).toMatchObject({
        email_verified: false,
        full_name: person.email!.split('@')[0],
        avatar_url: null,
        provider: 'google',
      });
      await waitForJobs(db);
      const mails = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === person.email);
      expect(mails.map((m) => m.subject)).toEqual(['Confirm your email address for Fieldmarket']);
    });

    it('signs a returning user in by their Google subject, even after their address at Google changed', async () => {
      const person = newGoogleAccount();
      await viaGoogle(new Browser(t), person);
      const { id } = (await userRow(person.email!))!;

      const browser = new Browser(t);
      const back = await viaGoogle(browser, { ...person, email: `new.${person.email}` });
      expect(back.headers.location).toBe('/browse');
      expect((await me(browser)).user).toMatchObject({ id, email: person.email });
      expect(await userRow(`new.${person.email}`)).toBeUndefined();
    });

    it('links an existing password account when Google has verified its address, keeping the password', async () => {
      const { person, id } = await signedInPerson(t);
      const googler = newGoogleAccount({ email: person.email });
      const browser = new Browser(t);
      expect((await viaGoogle(browser, googler)).headers.location).toBe('/browse');
      expect((await me(browser)).user).toMatchObject({ id, provider: 'password' });
      expect(await userRow(person.email)).toMatchObject({ google_subject: googler.sub, password_hash: expect.any(String) });
      const password = await new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password: person.password });
      expect(password.statusCode).toBe(200);
    });

    it('does not link when Google has not verified the address, and leaves the account as it was', async () => {
      const { person } = await signedInPerson(t);
      const before = await userRow(person.email);
      const browser = new Browser(t);
      const back = await viaGoogle(browser, newGoogleAccount({ email: person.email, email_verified: false }));
      expect(back.headers.location).toBe('/signin?error=google-email-unverified');
      expect(sessionCookie(back)).toBeUndefined();
      expect((await me(browser)).user).toBeNull();
      expect(await userRow(person.email)).toEqual(before);
      expect(GOOGLE_SIGN_IN_ERRORS['google-email-unverified']).toBe(
        'Your Google address is not verified with Google, so it cannot be linked to the existing account. Sign in with your password.',
      );
    });

    it('does not link an account whose own address was never confirmed (someone else may have set its password)', async () => {
      const person = newPerson();
      await new Browser(t).call('POST', '/api/auth/signup', person);
      const back = await viaGoogle(new Browser(t), newGoogleAccount({ email: person.email }));
      expect(back.headers.location).toBe('/signin?error=google-account-unconfirmed');
      expect(sessionCookie(back)).toBeUndefined();
      expect((await userRow(person.email))?.google_subject).toBeNull();
    });

    it('does not move an account linked to one Google account over to another with the same address', async () => {
      const first = newGoogleAccount();
      await viaGoogle(new Browser(t), first);
      const back = await viaGoogle(new Browser(t), newGoogleAccount({ email: first.email }));
      expect(back.headers.location).toBe('/signin?error=google-linked-elsewhere');
      expect(sessionCookie(back)).toBeUndefined();
      expect((await userRow(first.email!))?.google_subject).toBe(first.sub);
    });

    it('still asks a linked password account with two-factor on for its code: Google does not bypass it', async () => {
      const { person, browser: owner } = await signedInPerson(t);
      const setup = await owner.call('POST', '/api/profile/two-factor/setup');
      const { secret } = setup.json<{ data: { secret: string } }>().data;
      const enabled = await owner.call('POST', '/api/profile/two-factor/verify', { token: await generate({ secret }) });
      const [recoveryCode] = enabled.json<{ data: { recovery_codes: string[] } }>().data.recovery_codes;

      const browser = new Browser(t);
      const back = await viaGoogle(browser, newGoogleAccount({ email: person.email }), '?redirect=/messages');
      expect(back.headers.location).toBe('/messages');
      expect(sessionCookie(back)).toBeUndefined();
      expect(await me(browser)).toEqual({ user: null, two_factor_pending: true });
      expect((await browser.call('GET', '/api/profile')).statusCode).toBe(401);

      const answered = await browser.call('POST', '/api/auth/two-factor/verify-login', { recovery_code: recoveryCode });
      expect(answered.statusCode).toBe(200);
      expect((await me(browser)).user).toMatchObject({ email: person.email });
    });
  });

  describe('the state', () => {
    it('refuses a callback that comes back to another browser (login CSRF), before any code is exchanged', async () => {
      const person = newGoogleAccount();
      const started = await start(new Browser(t));
      const callback = await google.consent(started.headers.location as string, person);
      const victim = new Browser(t);
      const back = await victim.call('GET', callback);
      expect(back.headers.location).toBe('/signin?error=google-failed');
      expect(sessionCookie(back)).toBeUndefined();
      expect(google.exchangedCodes).not.toContain(new URL(callback, 'http://x').searchParams.get('code'));
      expect(await userRow(person.email!)).toBeUndefined();
    });

    it.each([
      ['forged', (url: URL) => url.searchParams.set('state', 'A'.repeat(43))],
      ['missing', (url: URL) => url.searchParams.delete('state')],
    ])('refuses a %s state', async (_name, tamper) => {
      const person = newGoogleAccount();
      const browser = new Browser(t);
      const url = new URL(await google.consent((await start(browser)).headers.location as string, person), 'http://x');
      tamper(url);
      const back = await browser.call('GET', `${url.pathname}${url.search}`);
      expect(back.headers.location).toBe('/signin?error=google-failed');
      expect(google.exchangedCodes).not.toContain(url.searchParams.get('code'));
      expect((await me(browser)).user).toBeNull();
    });

    it('refuses the same callback a second time (the state cookie is gone, and Google takes a code once)', async () => {
      const browser = new Browser(t);
      const callback = await google.consent((await start(browser)).headers.location as string, newGoogleAccount());
      expect((await browser.call('GET', callback)).headers.location).toBe('/browse');
      await browser.call('POST', '/api/auth/signout');
      const again = await browser.call('GET', callback);
      expect(again.headers.location).toBe('/signin?error=google-failed');
      expect(sessionCookie(again)).toBeUndefined();
    });
  });

  describe('failures become a page that says so, never an error page', () => {
    it('when the person cancels at Google', async () => {
      const browser = new Browser(t);
      const back = await viaGoogle(browser, null);
      expect(back.statusCode).toBe(302);
      expect(back.headers.location).toBe('/signin?error=google-failed');
      expect((await me(browser)).user).toBeNull();
      expect(GOOGLE_SIGN_IN_ERRORS['google-failed']).toBe('Authentication failed. Please try again.');
    });

    it('when Google refuses the code', async () => {
      const browser = new Browser(t);
      const url = new URL(await google.consent((await start(browser)).headers.location as string, newGoogleAccount()), 'http://x');
      url.searchParams.set('code', 'a-code-google-never-issued');
      const back = await browser.call('GET', `${url.pathname}${url.search}`);
      expect(back.statusCode).toBe(302);
      expect(back.headers.location).toBe('/signin?error=google-failed');
      expect(google.exchangedCodes).toContain('a-code-google-never-issued');
      expect((await me(browser)).user).toBeNull();
    });

    it('when the callback is opened with nothing, or with repeated parameters', async () => {
      for (const query of ['', '?code=a&code=b&state=c&state=d']) {
        const back = await new Browser(t).call('GET', `/api/auth/google/callback${query}`);
        expect(back.statusCode).toBe(302);
        expect(back.headers.location).toBe('/signin?error=google-failed');
      }
    });

    it('limits sign-in attempts per client address, like password sign-in', async () => {
      const browser = new Browser(t);
      const answers: string[] = [];
      for (let attempt = 0; attempt < 31; attempt += 1) {
        answers.push((await browser.call('GET', '/api/auth/google/callback?code=x&state=y')).headers.location as string);
      }
      expect(answers.slice(0, 30).every((location) => location === '/signin?error=google-failed')).toBe(true);
      expect(answers[30]).toBe('/signin?error=too-many-attempts');
    });
  });

  describe('the route after signing in', () => {
    it.each([
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      'messages',
      '/..//evil.example/phish',
      '/.//evil.example',
      '/x/../..//evil.example',
      '/%2F%2Fevil.example',
      '/%5C%5Cevil.example',
    ])('ignores %j and goes to /browse', async (redirect) => {
      const back = await viaGoogle(new Browser(t), newGoogleAccount(), `?redirect=${encodeURIComponent(redirect)}`);
      expect(back.headers.location).toBe('/browse');
    });
  });

  describe('re-authentication before deleting a Google account', () => {
    async function googleUser() {
      const person = newGoogleAccount();
      const browser = new Browser(t);
      await viaGoogle(browser, person);
      const { id } = (await userRow(person.email!))!;
      // The sign-in was a while ago.
      await db.query(`update user_session set authenticated_at = now() - interval '10 minutes' where user_id = $1`, [id]);
      return { person, browser, id };
    }

    const authenticatedAt = async (id: string) =>
      (await db.query<{ authenticated_at: Date }>('select authenticated_at from user_session where user_id = $1', [id]))[0]
        ?.authenticated_at;

    it('lets the account be deleted once the same Google account confirms it, and not before', async () => {
      const { person, browser } = await googleUser();
      const refused = await browser.call('DELETE', '/api/profile', {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ success: false, error: REAUTH_FIRST });

      const back = await viaGoogle(browser, person, '?intent=reauth&redirect=/elsewhere');
      expect(back.headers.location).toBe('/profile?reauthenticated=1');
      const deleted = await browser.call('DELETE', '/api/profile', {});
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json()).toEqual({ success: true, data: { message: 'Account deleted successfully' } });
    });

    it('changes nothing when another Google account answers', async () => {
      const { browser, id } = await googleUser();
      const before = await authenticatedAt(id);
      const back = await viaGoogle(browser, newGoogleAccount(), '?intent=reauth');
      expect(back.headers.location).toBe('/profile?error=google-reauth-mismatch');
      expect(sessionCookie(back)).toBeUndefined();
      expect(await authenticatedAt(id)).toEqual(before);
      expect((await me(browser)).user).toMatchObject({ id });
      expect((await browser.call('DELETE', '/api/profile', {})).statusCode).toBe(403);
    });

    it('asks a browser without a session to sign in first', async () => {
      const back = await start(new Browser(t), '?intent=reauth');
      expect(back.headers.location).toBe('/signin?error=session-expired');
    });
  });

  it('refuses every two-factor call of a Google account with the spec’s message', async () => {
    const browser = new Browser(t);
    await viaGoogle(browser, newGoogleAccount());
    const calls: Array<[method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown]> = [
      ['GET', '/api/profile/two-factor'],
      ['POST', '/api/profile/two-factor/setup'],
      ['POST', '/api/profile/two-factor/verify', { token: '123456' }],
      ['POST', '/api/profile/two-factor/disable', { token: '123456' }],
      ['PUT', '/api/profile/two-factor', { enabled: true }],
      ['PUT', '/api/profile/two-factor', { enabled: false, token: '123456' }],
    ];
    for (const [method, path, body] of calls) {
      const response = await browser.call(method, path, body);
      expect([method, path, response.statusCode, response.json<{ error: string }>().error]).toEqual([
        method,
        path,
        400,
        TWO_FACTOR_NOT_FOR_GOOGLE,
      ]);
    }
  });
});

describe('Google sign-in without configuration', () => {
  const { t } = useTestApp({ OUTBOX_POLL_SECONDS: '300' });

  it('says so to the sign-in page, and sends a browser that tries anyway back to it with the reason', async () => {
    const browser = new Browser(t);
    expect((await browser.call('GET', '/api/auth/providers')).json()).toEqual({ success: true, data: { google: false } });
    for (const path of ['/api/auth/google?redirect=/messages', '/api/auth/google/callback?code=x&state=y']) {
      const response = await browser.call('GET', path);
      expect(response.statusCode).toBe(302);
      expect(response.headers.location).toBe('/signin?error=google-not-configured');
    }
    expect(GOOGLE_SIGN_IN_ERRORS['google-not-configured']).toBe('Google sign-in is not configured on this server.');
  });
});
