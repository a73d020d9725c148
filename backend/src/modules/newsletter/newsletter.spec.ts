import { afterEach, describe, expect, it } from '@jest/globals';
import { newPerson, signedUpPerson } from '../../testing/accounts.js';
import { ControlledClock } from '../../testing/clock.js';
import { useTestApp } from '../../testing/test-context.js';
import { readOutbox, waitForJobs, type OutboxMail } from '../../testing/test-app.js';

const CHECK_INBOX = 'Thanks! Please check your inbox and confirm your subscription with the link we sent.';

describe('newsletter: double opt-in and unsubscribe', () => {
  const clock = new ControlledClock();

  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300' }, { clock });
  afterEach(async () => {
    await waitForJobs(db);
  });

  let clients = 0;
  let addresses = 0;
  const newAddress = () => `reader.${++addresses}.${Date.now()}@example.co.uk`;
  const call = (url: string, payload: unknown, ip = `10.3.0.${++clients}`) =>
    t.app.inject({ method: 'POST', url, payload: payload as Record<string, string>, remoteAddress: ip });
  const subscribe = (email: string, ip?: string) => call('/api/newsletter/subscriptions', { email }, ip);
  const mailsTo = async (email: string): Promise<OutboxMail[]> => {
    await waitForJobs(db);
    return (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.to === email);
  };
  const tokenIn = (mail: OutboxMail | undefined, path: string) => {
    const link = mail?.text.match(new RegExp(`https?://\\S+${path}\\?token=([\\w%-]+)`));
    if (!link?.[1]) throw new Error(`no ${path} link in ${mail?.subject}`);
    return decodeURIComponent(link[1]);
  };
  const statusOf = async (email: string) =>
    (await db.query<{ status: string }>('select status from newsletter_subscription where email = $1', [email]))[0]?.status;

  /** Subscribes and confirms `email`; returns the welcome mail. */
  const confirmedSubscriber = async (email: string) => {
    await subscribe(email);
    const confirmation = (await mailsTo(email)).find((m) => m.subject.startsWith('Confirm your subscription'));
    expect((await call('/api/newsletter/confirm', { token: tokenIn(confirmation, '/newsletter/confirm') })).statusCode).toBe(200);
    const welcome = (await mailsTo(email)).find((m) => m.subject === 'Welcome to the Fieldmarket newsletter');
    expect(welcome).toBeDefined();
    return welcome as OutboxMail & { listUnsubscribe?: string };
  };

  it('stores a pending sign-up, mails a link that confirms it once, then welcomes with an unsubscribe link', async () => {
    const email = newAddress();
    const response = await subscribe(`  ${email.toUpperCase()} `);
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ success: true, data: { message: CHECK_INBOX } });
    expect(await statusOf(email)).toBe('pending');

    const [confirmation] = await mailsTo(email);
    expect(confirmation?.subject).toBe('Confirm your subscription to the Fieldmarket newsletter');
    const token = tokenIn(confirmation, '/newsletter/confirm');
    expect(await db.query('select id from newsletter_subscription where confirm_token_hash = $1', [token])).toHaveLength(0); // only its hash is kept

    const confirmed = await call('/api/newsletter/confirm', { token });
    expect(confirmed.json()).toEqual({
      success: true,
      data: { message: 'Your subscription is confirmed. The Fieldmarket newsletter will arrive in your inbox.' },
    });
    expect(await statusOf(email)).toBe('confirmed');

    const again = await call('/api/newsletter/confirm', { token });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({
      success: false,
      error: 'This confirmation link is invalid, has already been used or has expired. Subscribe again to get a new one.',
    });

    const welcome = (await mailsTo(email)).find((m) => m.subject === 'Welcome to the Fieldmarket newsletter') as OutboxMail & {
      listUnsubscribe?: string;
    };
    const unsubscribe = tokenIn(welcome, '/newsletter/unsubscribe');
    expect(welcome.listUnsubscribe).toBe(`${t.config.publicUrl}/newsletter/unsubscribe?token=${unsubscribe}`);
  });

  it('refuses a confirmation link after 48 hours', async () => {
    const email = newAddress();
    await subscribe(email);
    const token = tokenIn((await mailsTo(email))[0], '/newsletter/confirm');
    clock.advanceDays(2.01);
    const response = await call('/api/newsletter/confirm', { token });
    expect(response.statusCode).toBe(400);
    expect(await statusOf(email)).toBe('pending');
    // Subscribing again sends a new link that works.
    await subscribe(email);
    const fresh = tokenIn((await mailsTo(email)).at(-1), '/newsletter/confirm');
    expect((await call('/api/newsletter/confirm', { token: fresh })).statusCode).toBe(200);
  });

  it('unsubscribes with one click from the link, says the same on a second click, and refuses an unknown link', async () => {
    const email = newAddress();
    const token = tokenIn(await confirmedSubscriber(email), '/newsletter/unsubscribe');
    const done = { success: true, data: { message: 'You have been unsubscribed and will receive no more newsletters from Fieldmarket.' } };
    expect((await call('/api/newsletter/unsubscribe', { token })).json()).toEqual(done);
    expect(await statusOf(email)).toBe('unsubscribed');
    expect((await call('/api/newsletter/unsubscribe', { token })).json()).toEqual(done);
    const unknown = await call('/api/newsletter/unsubscribe', { token: 'x'.repeat(43) });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ error: string }>().error).toMatch(/^This unsubscribe link is not valid/);
    // Subscribing again needs a new confirmation.
    await subscribe(email);
    expect(await statusOf(email)).toBe('pending');
  });

  it('answers a known and an unknown address alike, and mails each once', async () => {
    const known = newAddress();
    await confirmedSubscriber(known);
    const before = (await mailsTo(known)).length;
    const unknown = newAddress();

    const [a, b] = [await subscribe(known), await subscribe(unknown)];
    expect(a.statusCode).toBe(b.statusCode);
    expect(a.json()).toEqual(b.json());
    expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
    expect((await mailsTo(known)).length - before).toBe(1);
    expect(await mailsTo(unknown)).toHaveLength(1);
    // The subscriber learns it is already on the list, with the way off it.
    const note = (await mailsTo(known)).at(-1);
    expect(note?.subject).toBe('You are already subscribed to the Fieldmarket newsletter');
    expect(note?.text).toContain('/newsletter/unsubscribe?token=');
  });

  it('refuses an invalid address with the form message', async () => {
    const response = await subscribe('farmer@');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      success: false,
      error: 'Please enter a valid email address',
      fields: { email: 'Please enter a valid email address' },
    });
  });

  it('limits each client with a 429, and each address to three mails a day without saying so', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await subscribe(newAddress(), '10.8.8.8')).statusCode);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    expect((await subscribe(newAddress(), '10.8.8.8')).json()).toEqual({
      success: false,
      error: 'Too many sign-ups from your connection. Please wait a few minutes and try again.',
    });

    const target = newAddress();
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push((await subscribe(target)).json());
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(await mailsTo(target)).toHaveLength(3);
  });

  it("is part of the account's export, and goes with the account, also when the account came after the sign-up", async () => {
    const reader = newPerson('Nell Reader');
    await confirmedSubscriber(reader.email);
    const { browser, person } = await signedUpPerson(t, db, reader);
    const exported = await browser.call('GET', '/api/profile/export');
    expect(exported.json<{ data: { newsletter: unknown[] } }>().data.newsletter).toEqual([
      expect.objectContaining({ email: person.email, status: 'confirmed' }),
    ]);
    expect((await browser.call('DELETE', '/api/profile', { password: person.password })).statusCode).toBe(200);
    await waitForJobs(db);
    expect(await statusOf(person.email)).toBeUndefined();
  });
});
