import { beforeAll, describe, expect, it } from '@jest/globals';
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { Browser, signedInPerson } from '../../testing/accounts.js';
import { insertListing, postListing } from '../../testing/listings.js';
import { signIn, staffCommand, staffCommandProcess, staffMember, turnOnTwoFactor, twoFactorPerson } from '../../testing/staff.js';
import { eventually, readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';
import { STAFF_TEXTS } from '../../contracts/staff.js';

type Json = Record<string, unknown>;
const data = <T = Json>(response: { json: <R>() => R }) => response.json<{ data: T }>().data;

const PUBLIC_URL = 'https://fieldmarket.example';

describe('staff: role, inbox, reports and moderation', () => {
  let staff: Awaited<ReturnType<typeof staffMember>>;

  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', PUBLIC_URL }, { waitForJobs: true });
  beforeAll(async () => {
    staff = await staffMember(t, db);
  });

  const listingOf = async (sellerId: string, title = 'Massey Ferguson 135 tractor') => insertListing(db, { seller: sellerId, title });
  const visitor = () => new Browser(t);

  describe('who may use staff calls', () => {
    it('refuses visitors (401), ordinary users (403) and staff without two-factor (403, saying to turn it on)', async () => {
      expect((await visitor().call('GET', '/api/staff/inbox')).statusCode).toBe(401);

      const user = await signedInPerson(t);
      for (const [method, url] of [
        ['GET', '/api/staff/inbox'],
        ['GET', '/api/staff/queues'],
        ['POST', `/api/staff/users/${user.id}/suspend`],
      ] as const) {
        const refused = await user.browser.call(method, url, method === 'POST' ? { reason: 'Testing the guard' } : undefined);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toMatchObject({ success: false, error: STAFF_TEXTS.staffOnly });
      }

      expect((await staffCommand(db, 'grant', user.person.email)).code).toBe(0);
      const again = await signIn(t, user.person);
      const noTwoFactor = await again.call('GET', '/api/staff/inbox');
      expect(noTwoFactor.statusCode).toBe(403);
      expect(noTwoFactor.json()).toMatchObject({ error: STAFF_TEXTS.twoFactorNeeded });

      await turnOnTwoFactor(again);
      expect((await again.call('GET', '/api/staff/inbox')).statusCode).toBe(200);
    });

    it('ends every session of the account when the command grants or revokes the role', async () => {
      const { recoveryCodes, ...user } = await twoFactorPerson(t);
      const phone = await signIn(t, user.person, recoveryCodes);
      const granted = await staffCommand(db, 'grant', user.person.email);
      expect(granted.stdout).toContain('Signed out of 2 sessions: they sign in again.');
      for (const browser of [user.browser, phone]) {
        expect((await browser.call('GET', '/api/staff/inbox')).statusCode).toBe(401);
        expect((await browser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
      }

      const staffBrowser = await signIn(t, user.person, recoveryCodes);
      expect((await staffBrowser.call('GET', '/api/staff/inbox')).statusCode).toBe(200);
      expect((await staffCommand(db, 'revoke', user.person.email)).stdout).toContain('Signed out of 1 session: they sign in again.');
      expect((await staffBrowser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: null } });
      // Nothing changed, nothing ended.
      const later = await signIn(t, user.person, recoveryCodes);
      expect((await staffCommand(db, 'revoke', user.person.email)).stdout).not.toContain('Signed out');
      expect((await later.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: { email: user.person.email } } });
    });

    it('ends the other sessions when two-factor is turned on: one signed in with the password alone cannot open staff pages', async () => {
      // Staff without two-factor yet, signed in with the password in two browsers.
      const user = await signedInPerson(t);
      expect((await staffCommand(db, 'grant', user.person.email)).code).toBe(0);
      const [first, second] = [await signIn(t, user.person), await signIn(t, user.person)];
      await turnOnTwoFactor(second);
      const refused = await first.call('GET', '/api/staff/inbox');
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([401, 'Session expired. Please sign in again.']);
      expect((await second.call('GET', '/api/staff/inbox')).statusCode).toBe(200);
    });

    it('refuses a session that never passed the second factor, even when the account has two-factor on', async () => {
      // As every session signed in before sessions recorded their second factor.
      const member = await staffMember(t, db);
      await db.query(`update user_session set second_factor_at = null where user_id = $1`, [member.id]);
      const refused = await member.browser.call('GET', '/api/staff/inbox');
      expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([403, STAFF_TEXTS.secondFactorNeeded]);

      // Signing in again with the password and a code opens them.
      const again = await signIn(t, member.person, member.recoveryCodes);
      expect((await again.call('GET', '/api/staff/inbox')).statusCode).toBe(200);
    });

    it('grants and revokes the role only through the command, which says what it did', async () => {
      const { recoveryCodes, ...user } = await twoFactorPerson(t);

      // The compiled script as `./fieldmarket staff` runs it, in a process of its own: its arguments and exit codes.
      const granted = await staffCommandProcess(db, 'grant', user.person.email.toUpperCase());
      expect(granted).toMatchObject({ code: 0 });
      expect(granted.stdout).toContain(`<${user.person.email}> is now staff.`);
      expect((await staffCommand(db, 'grant', user.person.email)).stdout).toContain('was already staff; nothing changed');
      const staffBrowser = await signIn(t, user.person, recoveryCodes);
      expect((await staffBrowser.call('GET', '/api/staff/inbox/summary')).statusCode).toBe(200);

      const revoked = await staffCommand(db, 'revoke', user.person.email);
      expect(revoked.stdout).toContain('is no longer staff');
      const revokedRequest = await (await signIn(t, user.person, recoveryCodes)).call('GET', '/api/staff/inbox/summary');
      expect(revokedRequest.statusCode).toBe(403);

      const unknown = await staffCommandProcess(db, 'grant', 'nobody@example.co.uk');
      expect(unknown).toMatchObject({ code: 1 });
      expect(unknown.stderr).toContain('No account has the address nobody@example.co.uk');
      expect(await staffCommand(db, 'grant', 'nobody@example.co.uk')).toMatchObject({ code: 1 });
      const misused = await staffCommandProcess(db, 'promote', user.person.email);
      expect(misused).toMatchObject({ code: 2 });
      expect(misused.stderr).toContain('usage: ./fieldmarket staff grant <email>');
    });

    it('warns at grant time when the account has no two-factor sign-in yet', async () => {
      const user = await signedInPerson(t);
      const granted = await staffCommand(db, 'grant', user.person.email);
      expect(granted.stdout).toContain('have not turned on two-factor sign-in');
    });

    it('has no API route that changes a role', async () => {
      const user = await signedInPerson(t);
      await user.browser.call('PUT', '/api/profile', { full_name: 'Jane Farmer', role: 'staff' });
      await user.browser.call('PATCH', '/api/profile', { role: 'staff' });
      const [row] = await db.query<{ role: string }>('select role from app_user where id = $1', [user.id]);
      expect(row?.role).toBe('user');
    });
  });

  describe('reports', () => {
    it('asks visitors to sign in, and checks the reason, the target and the details', async () => {
      const seller = await signedInPerson(t);
      const listingId = await listingOf(seller.id);
      const refused = await visitor().call('POST', '/api/reports', { target_kind: 'listing', target_id: listingId, reason: 'scam' });
      expect(refused.statusCode).toBe(401);

      const reporter = await signedInPerson(t);
      const bad = async (payload: Json, status: number, error: string) => {
        const response = await reporter.browser.call('POST', '/api/reports', payload);
        expect(response.statusCode).toBe(status);
        expect(response.json<{ error: string }>().error).toBe(error);
      };
      await bad({ target_kind: 'listing', target_id: listingId, reason: 'because' }, 400, 'Please choose a reason');
      await bad({ target_kind: 'tractor', target_id: listingId, reason: 'scam' }, 400, 'Report a listing, a user or a review');
      await bad(
        { target_kind: 'listing', target_id: listingId, reason: 'scam', details: 'x'.repeat(1001) },
        400,
        'Details must be at most 1000 characters',
      );
      await bad(
        { target_kind: 'listing', target_id: '00000000-0000-4000-8000-000000000000', reason: 'scam' },
        404,
        STAFF_TEXTS.reportNotFound,
      );
      await bad({ target_kind: 'user', target_id: listingId, reason: 'scam' }, 404, STAFF_TEXTS.reportNotFound);
      const own = await seller.browser.call('POST', '/api/reports', { target_kind: 'listing', target_id: listingId, reason: 'scam' });
      expect(own.statusCode).toBe(400);
      expect(own.json()).toMatchObject({ error: STAFF_TEXTS.cannotReportOwn });
      const self = await seller.browser.call('POST', '/api/reports', { target_kind: 'user', target_id: seller.id, reason: 'spam' });
      expect(self.statusCode).toBe(400);
    });

    it('takes one open report per reporter and target, and another once staff archived it', async () => {
      const seller = await signedInPerson(t);
      const listingId = await listingOf(seller.id, 'Hay bales small square');
      const reporter = await signedInPerson(t);
      const report = { target_kind: 'listing', target_id: listingId, reason: 'misleading', details: 'The bales are round.' };
      const first = await reporter.browser.call('POST', '/api/reports', report);
      expect(first.statusCode).toBe(201);
      expect(data(first)).toMatchObject({ message: STAFF_TEXTS.reportReceived });
      const again = await reporter.browser.call('POST', '/api/reports', { ...report, reason: 'scam' });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ error: STAFF_TEXTS.alreadyReported });

      // Someone else may report the same listing; a person may be reported too.
      const other = await signedInPerson(t);
      expect((await other.browser.call('POST', '/api/reports', report)).statusCode).toBe(201);
      expect(
        (await reporter.browser.call('POST', '/api/reports', { target_kind: 'user', target_id: seller.id, reason: 'offensive' }))
          .statusCode,
      ).toBe(201);

      const { id } = data<{ id: string }>(first);
      expect((await staff.browser.call('POST', `/api/staff/inbox/report/${id}/archive`, { archived: true })).statusCode).toBe(204);
      expect((await reporter.browser.call('POST', '/api/reports', report)).statusCode).toBe(201);
    });

    it('limits how many reports one person sends in an hour', async () => {
      const reporter = await signedInPerson(t);
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) {
        const seller = await signedInPerson(t);
        const listingId = await listingOf(seller.id, `Feed barrier number ${i}`);
        statuses.push(
          (await reporter.browser.call('POST', '/api/reports', { target_kind: 'listing', target_id: listingId, reason: 'spam' }))
            .statusCode,
        );
      }
      expect(statuses.slice(0, 10).every((s) => s === 201)).toBe(true);
      expect(statuses[10]).toBe(429);
    });
  });

  describe('the inbox', () => {
    it('holds contact messages and reports, filters them, and tracks read, assignment, archive and delete', async () => {
      const contact = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '10.77.0.1',
        headers: { 'content-type': 'application/json' },
        payload: {
          name: 'Ann Ewe',
          email: 'ann@example.co.uk',
          subject: 'Fees for livestock',
          message: 'Do you charge for livestock listings?',
        },
      });
      const contactId = data<{ id: string }>(contact).id;
      const seller = await signedInPerson(t);
      const listingId = await listingOf(seller.id, 'Suffolk ewes in lamb');
      const reporter = await signedInPerson(t);
      const reportId = data<{ id: string }>(
        await reporter.browser.call('POST', '/api/reports', {
          target_kind: 'listing',
          target_id: listingId,
          reason: 'animal-welfare',
          details: 'No movement licence.',
        }),
      ).id;

      const list = async (query = '') =>
        data<{ items: Array<Json & { id: string }> }>(await staff.browser.call('GET', `/api/staff/inbox${query}`)).items;
      const all = await list();
      expect(all.find((i) => i.id === contactId)).toMatchObject({
        kind: 'contact',
        subject: 'Fees for livestock',
        read: false,
        from: { email: 'ann@example.co.uk' },
      });
      expect(all.find((i) => i.id === reportId)).toMatchObject({
        kind: 'report',
        category: 'animal-welfare',
        target: { kind: 'listing', id: listingId, label: 'Suffolk ewes in lamb' },
      });
      expect((await list('?kind=contact')).every((i) => i.kind === 'contact')).toBe(true);
      expect((await list('?category=animal-welfare')).map((i) => i.id)).toContain(reportId);
      expect((await list('?category=scam')).map((i) => i.id)).not.toContain(reportId);
      expect((await list('?rating=4')).length).toBe(0); // only feedback has ratings
      expect((await staff.browser.call('GET', '/api/staff/inbox?status=lost')).statusCode).toBe(400);
      expect((await staff.browser.call('GET', '/api/staff/inbox?rating=9')).statusCode).toBe(400);

      // Read and unread.
      expect((await staff.browser.call('POST', `/api/staff/inbox/contact/${contactId}/read`, { read: true })).statusCode).toBe(204);
      expect((await list('?status=unread')).map((i) => i.id)).not.toContain(contactId);
      expect((await list('?status=read')).map((i) => i.id)).toContain(contactId);
      await staff.browser.call('POST', `/api/staff/inbox/contact/${contactId}/read`, { read: false });
      expect((await list('?status=unread')).map((i) => i.id)).toContain(contactId);

      // Assignment to staff only.
      const user = await signedInPerson(t);
      const notStaff = await staff.browser.call('POST', `/api/staff/inbox/report/${reportId}/assign`, { staff_id: user.id });
      expect(notStaff.statusCode).toBe(400);
      expect(notStaff.json()).toMatchObject({ error: STAFF_TEXTS.notStaffMember });
      await staff.browser.call('POST', `/api/staff/inbox/report/${reportId}/assign`, { staff_id: staff.id });
      expect((await list('?assigned=me')).map((i) => i.id)).toEqual([reportId]);

      // Detail: the reported listing and its seller as they are now.
      const detail = data<Json>(await staff.browser.call('GET', `/api/staff/inbox/report/${reportId}`));
      expect(detail).toMatchObject({
        body: 'No movement licence.',
        listing: { id: listingId, status: 'live' },
        account: { id: seller.id },
      });

      // Archive, then delete.
      await staff.browser.call('POST', `/api/staff/inbox/contact/${contactId}/archive`, { archived: true });
      expect((await list()).map((i) => i.id)).not.toContain(contactId);
      expect((await list('?status=archived')).map((i) => i.id)).toContain(contactId);
      expect((await staff.browser.call('DELETE', `/api/staff/inbox/contact/${contactId}`)).statusCode).toBe(204);
      expect((await staff.browser.call('GET', `/api/staff/inbox/contact/${contactId}`)).statusCode).toBe(404);
      expect(await db.query('select id from contact_message where id = $1', [contactId])).toHaveLength(0);
      expect((await staff.browser.call('POST', `/api/staff/inbox/contact/${contactId}/read`, { read: true })).statusCode).toBe(404);
      expect((await staff.browser.call('GET', `/api/staff/inbox/letters/${contactId}`)).statusCode).toBe(404);

      const audit = data<Array<{ action: string; target_id: string; staff_name: string }>>(
        await staff.browser.call('GET', '/api/staff/audit'),
      );
      expect(audit.filter((a) => a.target_id === contactId).map((a) => a.action)).toEqual([
        'inbox.delete',
        'inbox.archive',
        'inbox.unread',
        'inbox.read',
      ]);
      expect(audit.find((a) => a.target_id === reportId)).toMatchObject({ action: 'inbox.assign', staff_name: staff.person.name });
    });

    it('holds feedback with its fields, filters it by category and rating, and reads, assigns, replies, archives and deletes it', async () => {
      const send = async (payload: Json, ip: string) => {
        const response = await t.app.inject({ method: 'POST', url: '/api/feedback', remoteAddress: ip, payload: payload as never });
        expect(response.statusCode).toBe(201);
        return data<{ id: string }>(response).id;
      };
      const bugId = await send(
        {
          name: 'Cara Hogg',
          email: 'cara@example.co.uk',
          category: 'bug-report',
          rating: 2,
          message: 'The photo upload stops at 90% on my phone.',
        },
        '10.78.0.1',
      );
      const ideaId = await send(
        { name: 'Dai Ram', email: 'dai@example.co.uk', category: 'feature-request', rating: 5, message: 'Please add saved searches.' },
        '10.78.0.2',
      );

      const list = async (query: string) =>
        data<{ items: Array<Json & { id: string }> }>(await staff.browser.call('GET', `/api/staff/inbox${query}`)).items;
      const feedback = await list('?kind=feedback');
      expect(feedback.every((i) => i.kind === 'feedback')).toBe(true);
      expect(feedback.find((i) => i.id === bugId)).toMatchObject({
        kind: 'feedback',
        subject: 'Feedback: Bug Report, rated 2/5',
        from: { name: 'Cara Hogg', email: 'cara@example.co.uk' },
        category: 'bug-report',
        category_label: 'Bug Report',
        rating: 2,
        read: false,
        preview: 'The photo upload stops at 90% on my phone.',
      });
      const ids = async (query: string) => (await list(query)).map((i) => i.id);
      expect(await ids('?kind=feedback&category=bug-report')).toEqual([bugId]);
      expect(await ids('?category=feature-request')).toEqual([ideaId]);
      expect(await ids('?rating=5')).toEqual([ideaId]);
      expect(await ids('?category=bug-report&rating=5')).toEqual([]);
      expect(await ids('?kind=feedback&category=scam')).toEqual([]);
      expect(await ids('?kind=report&category=bug-report')).toEqual([]);

      const detail = async () =>
        data<Json & { fields: Json[]; replies: Json[]; audit: Array<{ action: string }> }>(
          await staff.browser.call('GET', `/api/staff/inbox/feedback/${bugId}`),
        );
      expect(await detail()).toMatchObject({
        body: 'The photo upload stops at 90% on my phone.',
        fields: [
          { label: 'Name', value: 'Cara Hogg' },
          { label: 'Email', value: 'cara@example.co.uk' },
          { label: 'Category', value: 'Bug Report' },
          { label: 'Rating', value: '2 of 5' },
          { label: 'Sent', value: 'as a visitor' },
        ],
      });

      expect((await staff.browser.call('POST', `/api/staff/inbox/feedback/${bugId}/read`, { read: true })).statusCode).toBe(204);
      expect(await ids('?kind=feedback&status=read')).toEqual([bugId]);
      expect(await ids('?kind=feedback&status=unread')).toEqual([ideaId]);

      await staff.browser.call('POST', `/api/staff/inbox/feedback/${bugId}/assign`, { staff_id: staff.id });
      expect(await ids('?kind=feedback&assigned=me')).toEqual([bugId]);

      const replied = await staff.browser.call('POST', `/api/staff/inbox/feedback/${bugId}/replies`, {
        message: 'Thank you, Cara: we have found the upload fault and fixed it.',
      });
      expect(replied.statusCode).toBe(201);
      const mail = await eventually(async () => {
        const found = (await readOutbox(t.config.mail.outboxDir)).find((m) => m.to === 'cara@example.co.uk');
        if (!found) throw new Error('no reply mailed yet');
        return found;
      });
      expect(mail.subject).toBe('Re: Feedback: Bug Report, rated 2/5');
      expect(mail.text).toContain('we have found the upload fault');
      await waitForJobs(db);
      expect((await detail()).replies).toEqual([expect.objectContaining({ to: 'cara@example.co.uk', sent_at: expect.any(String) })]);

      await staff.browser.call('POST', `/api/staff/inbox/feedback/${bugId}/archive`, { archived: true });
      expect(await ids('?kind=feedback')).toEqual([ideaId]);
      expect(await ids('?kind=feedback&status=archived')).toEqual([bugId]);
      expect((await detail()).audit.map((a) => a.action)).toEqual(['inbox.archive', 'inbox.reply', 'inbox.assign', 'inbox.read']);

      expect((await staff.browser.call('DELETE', `/api/staff/inbox/feedback/${bugId}`)).statusCode).toBe(204);
      expect((await staff.browser.call('GET', `/api/staff/inbox/feedback/${bugId}`)).statusCode).toBe(404);
      expect(await db.query('select id from feedback where id = $1', [bugId])).toHaveLength(0);
      const audit = data<Array<{ action: string; target_kind: string; target_id: string }>>(
        await staff.browser.call('GET', `/api/staff/audit?target_kind=feedback&target_id=${bugId}`),
      );
      expect(audit.map((a) => a.action)).toEqual(['inbox.delete', 'inbox.archive', 'inbox.reply', 'inbox.assign', 'inbox.read']);
      await staff.browser.call('DELETE', `/api/staff/inbox/feedback/${ideaId}`);
    });

    it('counts feedback against 48 hours, and a bug report (urgent) against 24', async () => {
      const waiting = async () =>
        data<{ kinds: Array<Json & { overdue: number; open: number }> }>(
          await staff.browser.call('GET', '/api/staff/inbox/summary'),
        ).kinds.find((k) => k.kind === 'feedback');
      const before = await waiting();
      expect(before).toMatchObject({ response_hours: 48 });
      const insert = async (category: string, hoursAgo: number) => {
        const [row] = await db.query<{ id: string }>(
          `insert into feedback (id, name, email, category, rating, message, created_at)
           values (gen_random_uuid(), 'Old Feedback', 'old@example.co.uk', $1, 3, 'Waiting for an answer', now() - make_interval(hours => $2))
           returning id`,
          [category, hoursAgo],
        );
        return row?.id as string;
      };
      const lateBug = await insert('bug-report', 25);
      const freshBug = await insert('bug-report', 23);
      const idea = await insert('feature-request', 25);
      const lateGeneral = await insert('general-feedback', 49);

      const after = await waiting();
      expect(after?.open).toBe((before?.open ?? 0) + 4);
      expect(after?.overdue).toBe((before?.overdue ?? 0) + 2);
      const items = data<{ items: Array<Json & { id: string }> }>(await staff.browser.call('GET', '/api/staff/inbox?kind=feedback')).items;
      const overdue = Object.fromEntries(items.map((i) => [i.id, i.overdue]));
      expect(overdue).toMatchObject({ [lateBug]: true, [freshBug]: false, [idea]: false, [lateGeneral]: true });
      // Archived, it waits no more.
      await staff.browser.call('POST', `/api/staff/inbox/feedback/${lateBug}/archive`, { archived: true });
      expect((await waiting())?.overdue).toBe((before?.overdue ?? 0) + 1);
    });

    it('counts what waits against the stated response times', async () => {
      await db.query(
        `insert into contact_message (id, name, email, subject, message, client_ip, created_at, acknowledgement_due)
         values (gen_random_uuid(), 'Old Message', 'old@example.co.uk', 'Waiting', 'Waiting for more than a day now', '10.9.9.9', now() - interval '25 hours', false)`,
      );
      const summary = data<{ kinds: Array<Json> }>(await staff.browser.call('GET', '/api/staff/inbox/summary'));
      const contact = summary.kinds.find((k) => k.kind === 'contact');
      expect(contact).toMatchObject({ response_hours: 24 });
      expect(contact?.overdue).toBeGreaterThanOrEqual(1);
      expect(summary.kinds.find((k) => k.kind === 'report')).toMatchObject({ response_hours: 24 });
      const overdue = data<{ items: Array<Json> }>(await staff.browser.call('GET', '/api/staff/inbox?kind=contact')).items.find(
        (i) => i.subject === 'Waiting',
      );
      expect(overdue).toMatchObject({ overdue: true });
    });

    it('writes an inbox change and its audit entry together: neither is kept when the other fails', async () => {
      const [{ id }] = (await db.query<{ id: string }>(
        `insert into contact_message (id, name, email, subject, message, client_ip, created_at, acknowledgement_due)
         values (gen_random_uuid(), 'Bea Stook', 'bea@example.co.uk', 'Haulage', 'Can a seller arrange haulage?', '10.9.9.8', now(), false)
         returning id`,
      )) as [{ id: string }];
      const item = async () =>
        (
          await db.query<{ read_at: Date | null; archived_at: Date | null; assigned_to_id: string | null }>(
            'select read_at, archived_at, assigned_to_id from contact_message where id = $1',
            [id],
          )
        )[0];
      const audited = async () => db.query('select id from staff_action where target_id = $1', [id]);
      // A failure injected in the database, on this item's rows only: the trigger refuses the write.
      const refuse = async (table: string, events: string, column: string) => {
        await db.query(`create or replace function refuse_write() returns trigger language plpgsql as $$
          begin raise exception 'refused for the test'; end $$`);
        await db.query(
          `create trigger refuse_write before ${events} on ${table} for each row
           when (${events === 'delete' ? 'OLD' : 'NEW'}.${column}::text = '${id}') execute function refuse_write()`,
        );
      };
      const allow = async (table: string) => db.query(`drop trigger refuse_write on ${table}`);
      const changes = [
        ['read', { read: true }],
        ['archive', { archived: true }],
        ['assign', { staff_id: staff.id }],
      ] as const;

      // The audit entry fails: the change is not applied.
      await refuse('staff_action', 'insert', 'target_id');
      for (const [action, body] of changes) {
        expect((await staff.browser.call('POST', `/api/staff/inbox/contact/${id}/${action}`, body)).statusCode).toBe(500);
        expect(await item()).toEqual({ read_at: null, archived_at: null, assigned_to_id: null });
      }
      expect((await staff.browser.call('DELETE', `/api/staff/inbox/contact/${id}`)).statusCode).toBe(500);
      expect(await item()).toEqual({ read_at: null, archived_at: null, assigned_to_id: null });
      await allow('staff_action');

      // The change fails: no audit entry says it was made.
      await refuse('contact_message', 'update', 'id');
      for (const [action, body] of changes) {
        expect((await staff.browser.call('POST', `/api/staff/inbox/contact/${id}/${action}`, body)).statusCode).toBe(500);
      }
      await allow('contact_message');
      await refuse('contact_message', 'delete', 'id');
      expect((await staff.browser.call('DELETE', `/api/staff/inbox/contact/${id}`)).statusCode).toBe(500);
      await allow('contact_message');
      expect(await audited()).toEqual([]);
      expect(await item()).toEqual({ read_at: null, archived_at: null, assigned_to_id: null });

      // With nothing refused, both are written.
      expect((await staff.browser.call('POST', `/api/staff/inbox/contact/${id}/archive`, { archived: true })).statusCode).toBe(204);
      expect((await item())?.archived_at).not.toBeNull();
      expect(await audited()).toHaveLength(1);
    });

    it('replies by e-mail through a job and keeps the reply in the thread', async () => {
      const contact = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '10.77.0.2',
        headers: { 'content-type': 'application/json' },
        payload: {
          name: 'Bob Tup',
          email: 'bob@example.co.uk',
          subject: 'Lost password',
          message: 'I cannot sign in any more, help please.',
        },
      });
      const id = data<{ id: string }>(contact).id;
      const empty = await staff.browser.call('POST', `/api/staff/inbox/contact/${id}/replies`, { message: ' ' });
      expect(empty.json()).toMatchObject({ error: 'Reply is required' });
      const replied = await staff.browser.call('POST', `/api/staff/inbox/contact/${id}/replies`, {
        message: 'Use Forgot password on the sign-in page.',
      });
      expect(replied.statusCode).toBe(201);
      const mail = await eventually(async () => {
        const found = (await readOutbox(t.config.mail.outboxDir)).find(
          (m) => m.to === 'bob@example.co.uk' && m.subject === 'Re: Lost password',
        );
        if (!found) throw new Error('no reply mailed yet');
        return found;
      });
      expect(mail.text).toContain('Use Forgot password on the sign-in page.');
      await waitForJobs(db);
      const detail = data<{ read: boolean; replies: Array<Json>; audit: Array<Json> }>(
        await staff.browser.call('GET', `/api/staff/inbox/contact/${id}`),
      );
      expect(detail.read).toBe(true);
      expect(detail.replies).toEqual([
        expect.objectContaining({
          body: 'Use Forgot password on the sign-in page.',
          to: 'bob@example.co.uk',
          staff_name: staff.person.name,
        }),
      ]);
      expect(detail.replies[0]?.sent_at).not.toBeNull();
      expect(detail.audit.map((a) => a.action)).toEqual(['inbox.reply']);
    });
  });

  describe('moderation', () => {
    it('hides a listing: gone from browse and its page, the seller told why; restore brings it back; both audited', async () => {
      const seller = await signedInPerson(t);
      const listingId = await listingOf(seller.id, 'Unique Zetor crystal tractor');
      const search = async () =>
        data<{ listings: Array<{ id: string }> }>(await visitor().call('GET', '/api/listings?q=zetor')).listings.map((l) => l.id);
      expect(await search()).toContain(listingId);

      const tooShort = await staff.browser.call('POST', `/api/staff/listings/${listingId}/hide`, { reason: 'no' });
      expect(tooShort.json()).toMatchObject({ error: 'Reason must be at least 5 characters' });
      const reason = 'Photos copied from another seller’s advert';
      const hidden = await staff.browser.call('POST', `/api/staff/listings/${listingId}/hide`, { reason });
      expect(hidden.statusCode).toBe(201);
      expect(data(hidden)).toMatchObject({ status: 'removed', removal_reason: reason });
      expect(await search()).not.toContain(listingId);
      expect((await visitor().call('GET', `/api/listings/${listingId}`)).statusCode).toBe(404);
      expect((await staff.browser.call('POST', `/api/staff/listings/${listingId}/hide`, { reason })).statusCode).toBe(409);
      // The seller still sees it (My Listings) and cannot put it back live.
      expect((await seller.browser.call('GET', `/api/listings/${listingId}`)).statusCode).toBe(200);
      expect((await seller.browser.call('PATCH', `/api/listings/${listingId}/status`, { status: 'live' })).statusCode).toBe(403);

      const mail = await eventually(async () => {
        const found = (await readOutbox(t.config.mail.outboxDir)).find(
          (m) => m.to === seller.person.email && m.subject.includes('hidden by our team'),
        );
        if (!found) throw new Error('seller not told yet');
        return found;
      });
      expect(mail.text).toContain(reason);

      const restored = await staff.browser.call('POST', `/api/staff/listings/${listingId}/restore`, {});
      expect(data(restored)).toMatchObject({ status: 'live', removal_reason: null });
      expect(await search()).toContain(listingId);

      const audit = data<Array<Json>>(await staff.browser.call('GET', `/api/staff/audit?target_kind=listing&target_id=${listingId}`));
      expect(audit.map((a) => a.action)).toEqual(['listing.restore', 'listing.hide']);
      expect(audit[1]).toMatchObject({ reason, staff_name: staff.person.name });
      expect(
        (await staff.browser.call('POST', '/api/staff/listings/00000000-0000-4000-8000-000000000000/hide', { reason })).statusCode,
      ).toBe(404);
    });

    it('stops serving a hidden listing’s photos at once (404), serves them again on restore, and withholds a suspended seller’s', async () => {
      const seller = await signedInPerson(t);
      const { id: listingId } = await postListing(seller.browser, { title: 'Withheld Fendt photo tractor' });
      await waitForJobs(db);
      const [image] = data<{ images: Array<{ url: string | null }> }>(await visitor().call('GET', `/api/listings/${listingId}`)).images;
      const photo = async () => (await visitor().send('GET', image!.url!)).statusCode;
      expect(await photo()).toBe(200);

      await staff.browser.call('POST', `/api/staff/listings/${listingId}/hide`, { reason: 'Photos show a stolen tractor' });
      expect(await photo()).toBe(404);
      await staff.browser.call('POST', `/api/staff/listings/${listingId}/restore`, {});
      expect(await photo()).toBe(200);

      await staff.browser.call('POST', `/api/staff/users/${seller.id}/suspend`, { reason: 'Selling stolen machinery' });
      expect(await photo()).toBe(404);
    });

    it('features and unfeatures a live listing for the home page', async () => {
      const seller = await signedInPerson(t);
      const listingId = await listingOf(seller.id, 'Featured Kverneland plough');
      const featured = async () =>
        data<{ kind: string; listings: Array<{ id: string }> }>(await visitor().call('GET', '/api/listings/featured'));
      await staff.browser.call('POST', `/api/staff/listings/${listingId}/feature`, { featured: true });
      expect(await featured()).toMatchObject({ kind: 'featured' });
      expect((await featured()).listings.map((l) => l.id)).toContain(listingId);
      await staff.browser.call('POST', `/api/staff/listings/${listingId}/feature`, { featured: false });
      expect((await featured()).listings.map((l) => l.id).includes(listingId) && (await featured()).kind === 'featured').toBe(false);
      const audit = data<Array<Json>>(await staff.browser.call('GET', `/api/staff/audit?target_kind=listing&target_id=${listingId}`));
      expect(audit.map((a) => a.action)).toEqual(['listing.unfeature', 'listing.feature']);
    });

    it('suspending a user closes their open live connections', async () => {
      const member = await signedInPerson(t);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(t.app.getHttpServer().address() as AddressInfo).port}`;
      const socket = io(url, {
        path: '/socket.io',
        transports: ['websocket'],
        reconnection: false,
        extraHeaders: { cookie: member.browser.cookies, origin: PUBLIC_URL },
      });
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('realtime:ready', ({ signedIn }: { signedIn: boolean }) =>
            signedIn ? resolve() : reject(new Error('socket not signed in')),
          );
          socket.once('connect_error', reject);
        });
        const closed = new Promise<string>((resolve) => socket.once('disconnect', resolve));
        await staff.browser.call('POST', `/api/staff/users/${member.id}/suspend`, { reason: 'Threatening other members' });
        expect(await closed).toBe('io server disconnect');
      } finally {
        socket.close();
      }
    });

    it('suspends a user: sessions end, sign-in refused with a clear message, listings hidden; unsuspending restores them', async () => {
      const seller = await signedInPerson(t);
      const live = await listingOf(seller.id, 'Suspended seller quad bike');
      const hiddenBefore = await listingOf(seller.id, 'Suspended seller trailer');
      await staff.browser.call('POST', `/api/staff/listings/${hiddenBefore}/hide`, { reason: 'Trailer has no brakes at all' });
      const sold = await insertListing(db, { seller: seller.id, title: 'Suspended seller sold harrow', status: 'sold' });
      expect((await seller.browser.call('GET', '/api/auth/me')).json()).toMatchObject({ data: { user: { id: seller.id } } });

      const suspended = await staff.browser.call('POST', `/api/staff/users/${seller.id}/suspend`, { reason: 'Repeated scam listings' });
      expect(suspended.statusCode).toBe(201);
      expect(data(suspended)).toMatchObject({ suspension_reason: 'Repeated scam listings' });
      expect((await seller.browser.call('GET', '/api/profile')).statusCode).toBe(401);
      expect(await db.query('select id from user_session where user_id = $1', [seller.id])).toHaveLength(0);
      const signIn = await new Browser(t).call('POST', '/api/auth/signin', {
        email: seller.person.email,
        password: seller.person.password,
      });
      expect(signIn.statusCode).toBe(403);
      expect(signIn.json()).toMatchObject({ error: STAFF_TEXTS.suspended });
      const wrongPassword = await new Browser(t).call('POST', '/api/auth/signin', {
        email: seller.person.email,
        password: 'not-the-password',
      });
      expect(wrongPassword.json()).toMatchObject({ error: 'Incorrect email or password.' });
      expect((await visitor().call('GET', `/api/listings/${live}`)).statusCode).toBe(404);
      const statuses = async () =>
        Object.fromEntries(
          (await db.query<{ id: string; status: string }>('select id, status from listing where seller_id = $1', [seller.id])).map((r) => [
            r.id,
            r.status,
          ]),
        );
      expect(await statuses()).toEqual({ [live]: 'removed', [hiddenBefore]: 'removed', [sold]: 'removed' });
      const reporter = await signedInPerson(t);
      expect(
        (await reporter.browser.call('POST', '/api/reports', { target_kind: 'user', target_id: seller.id, reason: 'scam' })).statusCode,
      ).toBe(404);
      expect((await staff.browser.call('POST', `/api/staff/users/${seller.id}/suspend`, { reason: 'Again and again' })).statusCode).toBe(
        409,
      );
      expect((await staff.browser.call('POST', `/api/staff/users/${staff.id}/suspend`, { reason: 'Suspend myself' })).statusCode).toBe(400);
      expect((await staff.browser.call('POST', `/api/staff/listings/${live}/restore`, {})).statusCode).toBe(409);

      const lifted = await staff.browser.call('POST', `/api/staff/users/${seller.id}/unsuspend`, {});
      expect(data(lifted)).toMatchObject({ suspended_at: null });
      // What staff hid for itself stays hidden; the rest has its status back.
      expect(await statuses()).toEqual({ [live]: 'live', [hiddenBefore]: 'removed', [sold]: 'sold' });
      const again = await new Browser(t).call('POST', '/api/auth/signin', { email: seller.person.email, password: seller.person.password });
      expect(again.statusCode).toBe(200);

      const audit = data<Array<Json>>(await staff.browser.call('GET', `/api/staff/audit?target_kind=user&target_id=${seller.id}`));
      expect(audit.map((a) => [a.action, a.reason])).toEqual([
        ['user.unsuspend', '2 listings restored'],
        ['user.suspend', 'Repeated scam listings (2 listings hidden)'],
      ]);
    });
  });

  describe('the queue dashboard', () => {
    it('shows a job that failed for good with its error, and retries it', async () => {
      // Mail to the reserved .invalid domain is refused for good by the local outbox, as an SMTP server would.
      const contact = await t.app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '10.77.0.3',
        headers: { 'content-type': 'application/json' },
        payload: { name: 'Nobody', email: 'nobody@nowhere.invalid', subject: 'Bounce', message: 'This address cannot receive mail.' },
      });
      expect(contact.statusCode).toBe(201);
      type Dashboard = {
        backend: string;
        queues: Array<Json>;
        failed: Array<{ id: string; queue: string; name: string; error: string; attempts: number; state: string }>;
      };
      const failed = await eventually(async () => {
        const dashboard = data<Dashboard>(await staff.browser.call('GET', '/api/staff/queues'));
        const job = dashboard.failed.find((j) => j.name === 'contact.acknowledge-sender' && j.state === 'failed');
        if (!job) throw new Error('not failed yet');
        expect(dashboard.queues.find((q) => q.queue === 'mail')?.failed).toBeGreaterThanOrEqual(1);
        return job;
      });
      expect(failed).toMatchObject({ queue: 'mail', attempts: 1 });
      expect(failed.error).toContain('nobody@nowhere.invalid');

      expect((await staff.browser.call('POST', `/api/staff/queues/mail/jobs/${failed.id}/retry`)).statusCode).toBe(204);
      await eventually(async () => {
        const job = data<Dashboard>(await staff.browser.call('GET', '/api/staff/queues')).failed.find((j) => j.id === failed.id);
        if (job?.attempts !== 2) throw new Error('not retried yet');
      });
      expect((await staff.browser.call('POST', '/api/staff/queues/mail/jobs/no-such-job/retry')).statusCode).toBe(404);
      expect((await staff.browser.call('POST', `/api/staff/queues/nope/jobs/${failed.id}/retry`)).statusCode).toBe(404);

      expect((await staff.browser.call('DELETE', `/api/staff/queues/mail/jobs/${failed.id}`)).statusCode).toBe(204);
      const after = data<Dashboard>(await staff.browser.call('GET', '/api/staff/queues'));
      expect(after.failed.find((j) => j.id === failed.id)).toBeUndefined();
      const audit = data<Array<Json>>(await staff.browser.call('GET', `/api/staff/audit?target_kind=job&target_id=mail/${failed.id}`));
      expect(audit.map((a) => a.action)).toEqual(['job.remove', 'job.retry']);
    });
  });
});
