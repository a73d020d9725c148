import { describe, expect, it } from '@jest/globals';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { AppModule } from '../../app.module.js';
import type { ClientToServerEvents, ServerToClientEvents } from '../../events/client-events.js';
import { Browser, newPerson, signedInPerson, signedUpPerson } from '../../testing/accounts.js';
import { deleteRedisKeys } from '../../testing/redis.js';
import { readOutbox, startTestApp, testConfig, waitForJobs } from '../../testing/test-app.js';
import { createTestDatabase } from '../../testing/test-database.js';
import { useTestApp } from '../../testing/test-context.js';

describe('the profile', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300' });

  it('is only for a signed-in user', async () => {
    for (const [method, path] of [
      ['GET', '/api/profile'],
      ['PUT', '/api/profile'],
      ['PUT', '/api/profile/privacy'],
      ['PUT', '/api/profile/password'],
      ['GET', '/api/profile/export'],
      ['DELETE', '/api/profile'],
    ] as const) {
      const response = await new Browser(t).call(method, path, method === 'GET' ? undefined : {});
      expect([response.statusCode, response.json<{ error: string }>().error]).toEqual([401, 'Please sign in to continue.']);
    }
  });

  it('shows the account, with statistics and privacy settings, and saves changes', async () => {
    const { browser, person } = await signedInPerson(t);
    const before = (await browser.call('GET', '/api/profile')).json<{ data: Record<string, unknown> }>().data;
    expect(before).toMatchObject({
      email: person.email,
      full_name: person.name,
      phone: null,
      bio: null,
      email_confirmed: true,
      two_factor_enabled: false,
      provider: 'password',
      listings_count: 0,
      messages_count: 0,
      privacy_settings: {
        profile_visible: true,
        contact_visible: true,
        listings_visible: true,
        email_notifications: true,
        push_notifications: true,
      },
    });
    const saved = await browser.call('PUT', '/api/profile', {
      full_name: ' Jane Hedge ',
      phone: '01823 555 123',
      location: 'Wells',
      bio: 'Hay and straw, small bales.\nCollection only.',
      email: 'someone.else@example.co.uk',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      data: {
        full_name: 'Jane Hedge',
        phone: '01823 555 123',
        location: 'Wells',
        bio: 'Hay and straw, small bales.\nCollection only.',
        email: person.email,
      },
    });
    const cleared = await browser.call('PUT', '/api/profile', { full_name: 'Jane Hedge', phone: '', location: '', bio: '' });
    expect(cleared.json()).toMatchObject({ data: { phone: null, location: null, bio: null } });
  });

  it.each([
    ['full_name', 'Full name is required', { full_name: '  ' }],
    ['full_name', 'Full name must be on one line', { full_name: 'Jane\r\nHedge' }],
    ['phone', 'Phone must be at most 30 characters', { full_name: 'Jane', phone: '0'.repeat(31) }],
    ['bio', 'Bio must be at most 500 characters', { full_name: 'Jane', bio: 'b'.repeat(501) }],
    ['bio', 'Bio must be text', { full_name: 'Jane', bio: ['a'] }],
  ])('refuses a bad %s with "%s" and saves nothing', async (field, message, body) => {
    const { browser, person } = await signedInPerson(t);
    const response = await browser.call('PUT', '/api/profile', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ fields: { [field]: message } });
    expect(await db.query('select full_name from app_user where email = $1', [person.email])).toEqual([{ full_name: person.name }]);
  });

  it('saves the five privacy switches, refusing anything but booleans', async () => {
    const { browser } = await signedInPerson(t);
    const settings = {
      profile_visible: false,
      contact_visible: false,
      listings_visible: true,
      email_notifications: false,
      push_notifications: true,
    };
    const saved = await browser.call('PUT', '/api/profile/privacy', { privacy_settings: settings });
    expect(saved.json()).toEqual({ success: true, data: settings });
    expect((await browser.call('GET', '/api/profile')).json()).toMatchObject({ data: { privacy_settings: settings } });
    const wrong = await browser.call('PUT', '/api/profile/privacy', { privacy_settings: { ...settings, contact_visible: 'yes' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ fields: { 'privacy_settings.contact_visible': 'contact_visible must be true or false' } });
    const missing = await browser.call('PUT', '/api/profile/privacy', {});
    expect(missing.json()).toMatchObject({ fields: { privacy_settings: 'privacy_settings is required' } });
  });

  describe('the public profile', () => {
    it('shows what the owner allows, and nothing of another account’s private data', async () => {
      const owner = await signedInPerson(t, newPerson('Olive Owner'));
      await owner.browser.call('PUT', '/api/profile', { full_name: 'Olive Owner', phone: '07700 900123', location: 'Frome' });
      const visitor = new Browser(t);
      const shown = (await visitor.call('GET', `/api/profile/public/${owner.id}`)).json<{ data: Record<string, unknown> }>().data;
      expect(shown).toMatchObject({
        full_name: 'Olive Owner',
        location: 'Frome',
        phone_available: true,
        // "Business verified" (issue 23 §2): a confirmed e-mail is a requirement, not a badge.
        business_verified: false,
      });
      for (const key of ['privacy_settings', 'two_factor_enabled', 'provider', 'email', 'phone'])
        expect(Object.keys(shown)).not.toContain(key);

      const privacy = {
        profile_visible: true,
        contact_visible: false,
        listings_visible: true,
        email_notifications: true,
        push_notifications: true,
      };
      await owner.browser.call('PUT', '/api/profile/privacy', { privacy_settings: privacy });
      expect((await visitor.call('GET', `/api/users/profile/${owner.id}`)).json()).toMatchObject({ data: { phone_available: false } });

      await owner.browser.call('PUT', '/api/profile/privacy', { privacy_settings: { ...privacy, profile_visible: false } });
      const hidden = await visitor.call('GET', `/api/profile/public/${owner.id}`);
      expect([hidden.statusCode, hidden.json()]).toEqual([404, { success: false, error: 'Profile not found' }]);
      expect((await visitor.call('GET', `/api/users/${owner.id}/listings`)).statusCode).toBe(404);
      expect((await owner.browser.call('GET', `/api/profile/public/${owner.id}`)).statusCode).toBe(200);
    });

    it.each(['00000000-0000-4000-8000-000000000000', 'not-an-id', '1 or 1=1'])('answers 404 for %s', async (id) => {
      expect((await new Browser(t).call('GET', `/api/profile/public/${encodeURIComponent(id)}`)).statusCode).toBe(404);
    });
  });

  describe('password change', () => {
    it('checks the current password, then signs out every other session and keeps this one', async () => {
      const { browser, person } = await signedInPerson(t);
      const elsewhere = new Browser(t);
      await elsewhere.call('POST', '/api/auth/signin', { email: person.email, password: person.password });

      const wrong = await browser.call('PUT', '/api/profile/password', {
        current_password: 'not-it-at-all',
        new_password: 'Meadow-grass-2026',
      });
      expect([wrong.statusCode, wrong.json()]).toEqual([
        400,
        {
          success: false,
          error: 'Your current password is not correct.',
          fields: { current_password: 'Your current password is not correct.' },
        },
      ]);
      const common = await browser.call('PUT', '/api/profile/password', { current_password: person.password, new_password: 'qwerty123' });
      expect(common.json()).toMatchObject({ fields: { new_password: expect.stringContaining('too common') } });
      const short = await browser.call('PUT', '/api/profile/password', { current_password: person.password, new_password: 'abc' });
      expect(short.json()).toMatchObject({ fields: { new_password: 'New password must be at least 6 characters long' } });

      const changed = await browser.call('PUT', '/api/profile/password', {
        current_password: person.password,
        new_password: 'Meadow-grass-2026',
      });
      expect(changed.statusCode).toBe(200);
      expect((await browser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: { email: person.email } } });
      expect((await elsewhere.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
      const signIn = (password: string) => new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password });
      expect((await signIn(person.password)).statusCode).toBe(401);
      expect((await signIn('Meadow-grass-2026')).statusCode).toBe(200);
      await waitForJobs(db);
      const mails = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === person.email);
      expect(mails.map((m) => m.subject)).toContain('Your Fieldmarket password was changed');
    });
  });

  it('exports everything stored about the user, and no secret', async () => {
    const { browser, person } = await signedUpPerson(t, db);
    const response = await browser.call('GET', '/api/profile/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const data = response.json<{ data: Record<string, unknown> }>().data;
    expect(data).toMatchObject({
      profile: { email: person.email, full_name: person.name, privacy_settings: expect.any(Object) },
      statistics: { listings_count: 0, messages_count: 0 },
      sessions: [expect.objectContaining({ user_agent: expect.any(String), network: expect.stringMatching(/\/24$/) })],
      security: { recovery_codes_left: 0, email_links_sent: [expect.objectContaining({ purpose: 'verify-email' })] },
    });
    const [row] = await db.query<{ password_hash: string }>('select password_hash from app_user where email = $1', [person.email]);
    expect(response.body).not.toContain(row?.password_hash);
    expect(response.body).not.toMatch(/token_hash|password_hash|two_factor_secret/);
  });

  describe('account deletion', () => {
    it('needs the password, then removes the account and signs it out everywhere', async () => {
      const { browser, person, id } = await signedInPerson(t);
      const elsewhere = new Browser(t);
      await elsewhere.call('POST', '/api/auth/signin', { email: person.email, password: person.password });

      const without = await browser.call('DELETE', '/api/profile', {});
      expect(without.json()).toMatchObject({ fields: { password: 'Password is required' } });
      const wrong = await browser.call('DELETE', '/api/profile', { password: 'not-the-password' });
      expect(wrong.json()).toMatchObject({ fields: { password: 'Your current password is not correct.' } });

      const deleted = await browser.call('DELETE', '/api/profile', { password: person.password });
      expect(deleted.json()).toEqual({ success: true, data: { message: 'Account deleted successfully' } });
      expect(deleted.cookies.find((c) => c.name === 'fm_session')?.value).toBe('');
      for (const b of [browser, elsewhere]) expect((await b.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
      const signIn = await new Browser(t).call('POST', '/api/auth/signin', { email: person.email, password: person.password });
      expect([signIn.statusCode, signIn.json<{ error: string }>().error]).toEqual([401, 'Incorrect email or password.']);
      expect((await new Browser(t).call('GET', `/api/profile/public/${id}`)).statusCode).toBe(404);

      // The row stays as "Unknown User" with nothing personal left; the modules forget their part.
      await waitForJobs(db);
      const [row] = await db.query<Record<string, unknown>>(
        'select email, full_name, password_hash, phone, location, bio, deleted_at from app_user where id = $1',
        [id],
      );
      expect(row).toMatchObject({
        email: `deleted-${id}@deleted.invalid`,
        full_name: 'Unknown User',
        password_hash: null,
        phone: null,
        location: null,
        bio: null,
      });
      expect(row?.deleted_at).not.toBeNull();
      for (const table of ['user_session', 'email_token', 'recovery_code', 'login_challenge']) {
        expect(await db.query(`select 1 from ${table} where user_id = $1`, [id])).toHaveLength(0);
      }
      // The address can open a new account.
      expect((await new Browser(t).call('POST', '/api/auth/signup', person)).statusCode).toBe(201);
      expect(await db.query('select id from app_user where email = $1 and deleted_at is null', [person.email])).toHaveLength(1);
    });

    it('asks a Google account without a password to sign in with Google again first', async () => {
      const { browser, person } = await signedInPerson(t, newPerson('Gus Google'));
      await db.query(`update app_user set provider = 'google', password_hash = null where email = $1`, [person.email]);
      await db.query(`update user_session set authenticated_at = now() - interval '10 minutes'`);
      const refused = await browser.call('DELETE', '/api/profile', {});
      expect(refused.statusCode).toBe(403);
      expect(refused.json<{ error: string }>().error).toBe(
        'For your security, sign in with Google again, then delete the account within 5 minutes.',
      );
      expect(await db.query('select id from app_user where email = $1 and deleted_at is null', [person.email])).toHaveLength(1);
    });
  });
});

describe('profile changes reach the user’s other tabs live', () => {
  it('sends PROFILE_UPDATED from a job in the worker process to that user’s sockets only', async () => {
    const db = await createTestDatabase();
    const env = process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {};
    const web = await startTestApp(db, { ...env, WORKERS_IN_PROCESS: 'false' });
    let worker: INestApplicationContext | undefined;
    const sockets: Array<Socket<ServerToClientEvents, ClientToServerEvents>> = [];
    try {
      await web.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(web.app.getHttpServer().address() as AddressInfo).port}`;
      worker = await NestFactory.createApplicationContext(
        AppModule.forRoot(
          // The same queues and data folder (mail outbox) as the web process, as a worker process beside it would have.
          await testConfig(db, {
            ...env,
            QUEUE_PREFIX: web.config.queue.prefix,
            DATA_DIR: web.config.dataDir,
            WORKERS_IN_PROCESS: 'false',
          }),
          db.url,
          { kind: 'worker' },
        ),
        { logger: false },
      );
      await worker.init();

      const alice = await signedInPerson(web, newPerson('Alice Arable'));
      const bob = await signedInPerson(web, newPerson('Bob Beef'));
      const connect = async (cookies: string) => {
        const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(url, {
          path: '/socket.io',
          transports: ['websocket'],
          reconnection: false,
          extraHeaders: { cookie: cookies },
        });
        sockets.push(socket);
        const ready = await new Promise<{ signedIn: boolean }>((resolve, reject) => {
          socket.once('realtime:ready', resolve);
          socket.once('connect_error', reject);
        });
        expect(ready.signedIn).toBe(true);
        return socket;
      };
      const [aliceTab, bobTab] = await Promise.all([connect(alice.browser.cookies), connect(bob.browser.cookies)]);
      const bobEvents: unknown[] = [];
      bobTab.on('PROFILE_UPDATED', (event) => bobEvents.push(event));

      const received = new Promise<{ type: string; data: { user_id: string }; seq?: number }>((resolve) =>
        aliceTab.once('PROFILE_UPDATED', resolve),
      );
      await alice.browser.call('PUT', '/api/profile', { full_name: 'Alice Arable-Smith' });
      // Logged from the worker process too: it carries its place in Alice's event log.
      expect(await received).toMatchObject({ type: 'PROFILE_UPDATED', data: { user_id: alice.id }, seq: expect.any(Number) });
      await waitForJobs(db);
      expect(bobEvents).toEqual([]);
    } finally {
      for (const socket of sockets) socket.close();
      await worker?.close();
      await web.close();
      if (env.REDIS_URL) await deleteRedisKeys(env.REDIS_URL, web.config.queue.prefix);
      await db.drop();
    }
  });
});
