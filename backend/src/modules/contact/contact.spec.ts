import { afterEach, describe, expect, it } from '@jest/globals';
import { createTestDatabase } from '../../testing/test-database.js';
import { useTestApp } from '../../testing/test-context.js';
import { deleteRedisKeys } from '../../testing/redis.js';
import { eventually, readOutbox, startTestApp, waitForJobs } from '../../testing/test-app.js';
import { headerOf, startSmtpSink } from '../../testing/smtp-sink.js';

const valid = {
  name: 'Jane Farmer',
  email: 'jane@example.co.uk',
  subject: 'Tractor hire',
  message: 'Do you list tractors for hire in Devon?',
};

// The outbox's timer is set to 5 minutes in these tests: mail that arrives at all arrived because
// the commit itself handed the work to the queue.
const NO_TIMER = { OUTBOX_POLL_SECONDS: '300' };

describe('POST /api/contact', () => {
  const { db, t } = useTestApp({ CONTACT_RATE_LIMIT: '3', ...NO_TIMER });
  afterEach(async () => {
    await waitForJobs(db);
    await db.query('delete from contact_message');
  });

  const post = (payload: unknown, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
    t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', ...headers },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      remoteAddress: ip,
    });

  const mailsAbout = async (id: string, count: number) =>
    eventually(async () => {
      const all = (await readOutbox(t.config.mail.outboxDir)).filter((m) => m.messageId.includes(id));
      if (all.length < count) throw new Error(`only ${all.length} mails`);
      return all;
    });

  it.each([
    ['name', 'Name is required', { ...valid, name: '' }],
    ['name', 'Name is required', { ...valid, name: '   ' }],
    ['email', 'Email is required', { ...valid, email: '' }],
    ['email', 'Please enter a valid email address', { ...valid, email: 'jane@' }],
    ['subject', 'Subject is required', { ...valid, subject: undefined }],
    ['message', 'Message is required', { ...valid, message: '' }],
    ['message', 'Message must be at least 10 characters', { ...valid, message: '  too short ' }],
    ['message', 'Message must be at most 5000 characters', { ...valid, message: 'x'.repeat(5001) }],
    ['name', 'Name must be text', { ...valid, name: 42 }],
    ['name', 'Name must be on one line', { ...valid, name: 'Jane\r\nBcc: victim@example.com' }],
    ['subject', 'Subject must be on one line', { ...valid, subject: 'Hi\nX-Mailer: forged' }],
    ['message', 'Message must not contain control characters', { ...valid, message: 'Ring the bell \u0007 now please' }],
  ])('rejects a bad %s with "%s"', async (field, message, payload) => {
    const response = await post(payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ success: false, error: message, fields: { [field]: message } });
    expect(await db.query('select id from contact_message')).toHaveLength(0);
  });

  it('reports every invalid field at once, joined with commas', async () => {
    const response = await post({});
    expect(response.statusCode).toBe(400);
    const body = response.json<{ error: string; fields: Record<string, string> }>();
    expect(body.fields).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Subject is required',
      message: 'Message is required',
    });
    expect(body.error).toBe('Name is required, Email is required, Subject is required, Message is required');
  });

  it('stores a valid message, trimmed, and ignores fields a client may not set', async () => {
    const forgedId = '00000000-0000-4000-8000-000000000001';
    const response = await post({
      ...valid,
      name: '  Jane Farmer ',
      id: forgedId,
      clientIp: '1.2.3.4',
      acknowledgementDue: false,
      staffNotifiedAt: '2020-01-01T00:00:00Z',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json<{ success: boolean; data: { id: string; receivedAt: string } }>();
    expect(body.success).toBe(true);
    expect(body.data.id).not.toBe(forgedId);
    const rows = await db.query('select id, name, email, client_ip, acknowledgement_due from contact_message');
    expect(rows).toEqual([{ id: body.data.id, name: 'Jane Farmer', email: valid.email, client_ip: '10.0.0.1', acknowledgement_due: true }]);
  });

  it('e-mails staff and acknowledges the sender as soon as the message is committed', async () => {
    const response = await post(valid);
    const { id } = response.json<{ data: { id: string } }>().data;
    const mails = await mailsAbout(id, 2);
    const staff = mails.find((m) => m.to === t.config.mail.staffAddress);
    const ack = mails.find((m) => m.to === valid.email);
    expect(staff).toMatchObject({ subject: '[Contact] Tractor hire', replyTo: `Jane Farmer <${valid.email}>` });
    expect(staff?.text).toContain(valid.message);
    expect(ack?.subject).toBe(`We received your message (reference ${id.slice(0, 8).toUpperCase()})`);
    await waitForJobs(db);
    const [row] = await db.query<{ staff_notified_at: Date | null; acknowledged_at: Date | null }>(
      'select staff_notified_at, acknowledged_at from contact_message where id = $1',
      [id],
    );
    expect(row?.staff_notified_at).not.toBeNull();
    expect(row?.acknowledged_at).not.toBeNull();
  });

  it('acknowledges in our own words only: nothing the sender typed is repeated to the address they typed', async () => {
    const spam = {
      name: 'Cheap Pills',
      email: 'victim@example.com',
      subject: 'Buy now at pills.example',
      message: 'Visit http://pills.example today',
    };
    const { id } = (await post(spam, {}, '10.0.5.1')).json<{ data: { id: string } }>().data;
    const ack = (await mailsAbout(id, 2)).find((m) => m.to === spam.email);
    expect(ack).toBeDefined();
    for (const text of [spam.name, spam.subject, spam.message, 'pills']) {
      expect(`${ack?.subject}\n${ack?.text}`).not.toContain(text);
    }
  });

  it('acknowledges one address at most three times a day, however its case is written; staff get every message', async () => {
    const addresses = ['farm@example.com', 'Farm@example.com', 'FARM@EXAMPLE.COM', 'farm@Example.com'];
    const ids: string[] = [];
    for (const [i, email] of addresses.entries()) {
      const response = await post({ ...valid, email }, {}, `10.0.6.${i}`);
      expect(response.statusCode).toBe(201);
      ids.push(response.json<{ data: { id: string } }>().data.id);
    }
    await waitForJobs(db);
    const mails = (await readOutbox(t.config.mail.outboxDir)).filter((m) => ids.some((id) => m.messageId.includes(id)));
    expect(mails.filter((m) => m.to === t.config.mail.staffAddress)).toHaveLength(4);
    expect(mails.filter((m) => m.to === 'farm@example.com')).toHaveLength(3);
  });

  it('limits each client: past the limit it answers 429 with Retry-After and stores nothing more', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(valid, {}, '10.9.9.9')).statusCode);
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const limited = await post(valid, {}, '10.9.9.9');
    expect(limited.json()).toEqual({
      success: false,
      error: 'Too many messages from your connection. Please wait a few minutes and try again.',
    });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(await db.query(`select id from contact_message where client_ip = '10.9.9.9'`)).toHaveLength(3);
    // Another client is unaffected.
    expect((await post(valid, {}, '10.9.9.10')).statusCode).toBe(201);
  });

  it('holds the limit under concurrent requests', async () => {
    const statuses = await Promise.all(Array.from({ length: 8 }, () => post(valid, {}, '10.7.7.7').then((r) => r.statusCode)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    expect(await db.query(`select id from contact_message where client_ip = '10.7.7.7'`)).toHaveLength(3);
  });

  it.each([
    ['malformed JSON', '{"name": ', { 'content-type': 'application/json' }, 400, 'Request body is not valid JSON.'],
    [
      'a text body',
      'hello',
      { 'content-type': 'text/plain' },
      415,
      'Unsupported content type; send JSON with Content-Type: application/json.',
    ],
    [
      'an oversized body',
      JSON.stringify({ ...valid, message: 'x'.repeat(1_100_000) }),
      { 'content-type': 'application/json' },
      413,
      'Request body is too large (the limit is 1048576 bytes).',
    ],
  ])('answers %s with a clear 4xx', async (_label, payload, headers, status, error) => {
    const response = await post(payload, headers);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ success: false, error });
  });
});

describe('contact delivery on each queue backend and mail transport', () => {
  const backends: Array<{ name: string; env: () => Record<string, string> }> = [{ name: 'PostgreSQL queue', env: () => ({}) }];
  const redisUrl = process.env.REDIS_URL;
  if (redisUrl) backends.push({ name: 'Redis queue', env: () => ({ REDIS_URL: redisUrl, WORKERS_IN_PROCESS: 'true' }) });

  it.each(backends)('delivers over SMTP through the $name, each mail with a Message-ID of its own kind', async ({ env }) => {
    const db = await createTestDatabase();
    const smtp = await startSmtpSink();
    const t = await startTestApp(db, { ...env(), ...NO_TIMER, SMTP_URL: smtp.url, STAFF_EMAIL: 'staff@fieldmarket.test' });
    try {
      const response = await t.app.inject({ method: 'POST', url: '/api/contact', payload: valid });
      expect(response.statusCode).toBe(201);
      const { id } = response.json<{ data: { id: string } }>().data;
      await eventually(() => {
        if (smtp.received.length < 2) throw new Error(`received ${smtp.received.length}`);
      });
      expect(smtp.received.flatMap((m) => m.to).sort()).toEqual([valid.email, 'staff@fieldmarket.test'].sort());
      const staff = smtp.received.find((m) => m.to.includes('staff@fieldmarket.test'));
      expect(staff?.raw).toContain('Subject: [Contact] Tractor hire');
      expect(headerOf(staff?.raw ?? '', 'Message-ID')).toBe(`<contact-${id}.staff@fieldmarket.co.uk>`);
      const ack = smtp.received.find((m) => m.to.includes(valid.email));
      expect(headerOf(ack?.raw ?? '', 'Message-ID')).toBe(`<contact-${id}.acknowledgement@fieldmarket.co.uk>`);
    } finally {
      await t.close();
      await smtp.close();
      if (redisUrl && t.config.queue.redisUrl) await deleteRedisKeys(redisUrl, t.config.queue.prefix);
      await db.drop();
    }
  });

  it('retries only what failed: a refused acknowledgement is sent again, the staff copy is not', async () => {
    const db = await createTestDatabase();
    const smtp = await startSmtpSink();
    const t = await startTestApp(db, { ...NO_TIMER, SMTP_URL: smtp.url, STAFF_EMAIL: 'staff@fieldmarket.test' });
    try {
      smtp.failNextDeliveryTo(valid.email);
      const response = await t.app.inject({ method: 'POST', url: '/api/contact', payload: valid });
      expect(response.statusCode).toBe(201);
      // The first acknowledgement attempt fails; the entry records it, then the retry succeeds.
      await eventually(async () => {
        const [entry] = await db.query<{ attempts: number; completed_at: Date | null }>(
          `select attempts, completed_at from outbox_job where name = 'contact.acknowledge-sender'`,
        );
        if (!entry?.completed_at) throw new Error('acknowledgement not delivered yet');
        expect(entry.attempts).toBe(2);
      });
      await waitForJobs(db);
      expect(smtp.received.filter((m) => m.to.includes('staff@fieldmarket.test'))).toHaveLength(1);
      expect(smtp.received.filter((m) => m.to.includes(valid.email))).toHaveLength(1);
    } finally {
      await t.close();
      await smtp.close();
      await db.drop();
    }
  });
});
