import { beforeAll, describe, expect, it } from '@jest/globals';
import { APPEAL_TEXTS } from '../../contracts/listings.js';
import { Browser, signedInPerson } from '../../testing/accounts.js';
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { RETENTION } from '../../contracts/retention.js';
import { RetentionRegistry } from '../retention/retention.registry.js';
import { insertListing, postListing } from '../../testing/listings.js';
import { staffMember } from '../../testing/staff.js';
import { eventually, readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';

type Json = Record<string, unknown>;
const data = <T = Json>(response: { json: <R>() => R }) => response.json<{ data: T }>().data;

describe('a hidden listing: the owner sees why, appeals once, and cannot delete it until staff close the case', () => {
  let staff: Awaited<ReturnType<typeof staffMember>>;
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', PUBLIC_URL: 'https://fieldmarket.example' }, { waitForJobs: true });
  beforeAll(async () => {
    staff = await staffMember(t, db);
  });

  const REASON = 'Photos copied from another seller’s advert';
  const hiddenListing = async (title: string) => {
    const owner = await signedInPerson(t);
    const id = await insertListing(db, { seller: owner.id, title });
    expect((await staff.browser.call('POST', `/api/staff/listings/${id}/hide`, { reason: REASON })).statusCode).toBe(201);
    return { owner, id };
  };
  const appealItem = async (listingId: string) => {
    const inbox = data<{ items: Array<{ id: string; target: { id: string } | null; preview: string }> }>(
      await staff.browser.call('GET', '/api/staff/inbox?kind=appeal&status=all'),
    );
    return inbox.items.find((item) => item.target?.id === listingId);
  };
  const bell = async (owner: { browser: Browser }) =>
    data<{ notifications: Array<{ message: string }> } | Array<{ message: string }>>(await owner.browser.call('GET', '/api/notifications'));

  it('shows the owner the reason (nobody else), takes one appeal into the staff inbox, and refuses a second with 409', async () => {
    const { owner, id } = await hiddenListing('Appealed Claas baler');
    const seen = await owner.browser.call('GET', `/api/listings/${id}/moderation`);
    expect(seen.statusCode).toBe(200);
    expect(data(seen)).toMatchObject({ hidden: true, reason: REASON, may_appeal: true, may_delete: false, appeal: null });
    const stranger = await signedInPerson(t);
    expect((await stranger.browser.call('GET', `/api/listings/${id}/moderation`)).statusCode).toBe(404);
    expect(
      (await stranger.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'These are my own photos, honestly.' })).statusCode,
    ).toBe(404);

    const tooShort = await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'mine' });
    expect(tooShort.statusCode).toBe(400);
    const text = 'These are my own photos: I took them in the yard last Tuesday and can send more.';
    // Two at once: one goes in, the other is told it was already sent.
    const [first, second] = await Promise.all([
      owner.browser.call('POST', `/api/listings/${id}/appeal`, { text }),
      owner.browser.call('POST', `/api/listings/${id}/appeal`, { text }),
    ]);
    expect([first.statusCode, second.statusCode].sort()).toEqual([201, 409]);
    const again = await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: APPEAL_TEXTS.alreadyAppealed });
    expect(data(await owner.browser.call('GET', `/api/listings/${id}/moderation`))).toMatchObject({
      may_appeal: false,
      appeal: { text, status: 'pending', decline_reason: null },
    });

    const item = await appealItem(id);
    expect(item).toMatchObject({ preview: text });
    const detail = data<{ body: string; fields: Array<{ label: string; value: string }>; listing: unknown }>(
      await staff.browser.call('GET', `/api/staff/inbox/appeal/${item!.id}`),
    );
    expect(detail.body).toBe(text);
    // The inbox offers no "Close case" while the appeal waits: deciding the appeal closes it.
    expect(detail.listing).toMatchObject({ id, status: 'removed', case_closed: false, appeal_pending: true });
    expect(detail.fields).toContainEqual({ label: 'Why we hid it', value: REASON });
  });

  it('keeps the listing from being deleted until staff uphold the hiding; the owner is told by e-mail and bell; audited', async () => {
    const { owner, id } = await hiddenListing('Upheld Kuhn mower');
    const refused = await owner.browser.call('DELETE', `/api/listings/${id}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: APPEAL_TEXTS.caseOpen });
    expect(await db.query('select id from listing where id = $1', [id])).toHaveLength(1);

    await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'The mower is mine and the photos too.' });
    const item = (await appealItem(id))!;
    const decline = 'The same photos are on another seller’s advert from March';
    expect(
      (await staff.browser.call('POST', `/api/staff/inbox/appeal/${item.id}/decision`, { decision: 'decline', reason: decline }))
        .statusCode,
    ).toBeLessThan(300);
    expect(data(await owner.browser.call('GET', `/api/listings/${id}/moderation`))).toMatchObject({
      hidden: true,
      case_closed: true,
      may_delete: true,
      appeal: { status: 'declined', decline_reason: decline },
    });
    expect(data<{ listing: unknown }>(await staff.browser.call('GET', `/api/staff/inbox/appeal/${item.id}`)).listing).toMatchObject({
      case_closed: true,
      appeal_pending: false,
    });
    const mail = await eventually(async () => {
      const found = (await readOutbox(t.config.mail.outboxDir)).find(
        (m) => m.to === owner.person.email && m.subject.includes('Your appeal about "Upheld Kuhn mower"'),
      );
      if (!found) throw new Error('owner not told yet');
      return found;
    });
    expect(mail.text).toContain(decline);
    await eventually(async () => expect(JSON.stringify(await bell(owner))).toContain('Your appeal was declined'));
    const audit = data<Array<Json>>(await staff.browser.call('GET', `/api/staff/audit?target_kind=appeal&target_id=${item.id}`));
    expect(audit.map((a) => a.action)).toEqual(['appeal.decline']);

    expect((await staff.browser.call('POST', `/api/staff/inbox/appeal/${item.id}/decision`, { decision: 'approve' })).statusCode).toBe(409);
    expect((await owner.browser.call('DELETE', `/api/listings/${id}`)).statusCode).toBe(200);
  });

  it('restores the listing when staff approve the appeal, and the owner is told', async () => {
    const { owner, id } = await hiddenListing('Restored Bateman sprayer');
    await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'I have replaced the photos with my own.' });
    const item = (await appealItem(id))!;
    expect(
      (await staff.browser.call('POST', `/api/staff/inbox/appeal/${item.id}/decision`, { decision: 'approve' })).statusCode,
    ).toBeLessThan(300);
    expect((await new Browser(t).call('GET', `/api/listings/${id}`)).statusCode).toBe(200);
    expect(data(await owner.browser.call('GET', `/api/listings/${id}/moderation`))).toMatchObject({
      hidden: false,
      may_delete: true,
      appeal: { status: 'approved' },
    });
    await eventually(async () => expect(JSON.stringify(await bell(owner))).toContain('Your appeal was upheld'));
  });

  it('purges a hidden listing and its photo files after the retention period, keeping one whose appeal waits', async () => {
    const owner = await signedInPerson(t);
    const listed = async (title: string) => {
      const listing = await postListing<{ id: string; images: Array<{ id: string }> }>(owner.browser, { title });
      await staff.browser.call('POST', `/api/staff/listings/${listing.id}/hide`, { reason: REASON });
      return { id: listing.id, imageId: listing.images[0]!.id };
    };
    const old = await listed('Long hidden Deutz tractor');
    const appealed = await listed('Appealed Deutz tractor');
    const recent = await listed('Recently hidden Deutz tractor');
    await owner.browser.call('POST', `/api/listings/${appealed.id}/appeal`, { text: 'Still waiting on our team to look.' });
    await waitForJobs(db);
    const files = async (imageId: string) => {
      const dir = join(t.config.storage.uploadsDir, 'images', imageId);
      return existsSync(dir) ? await readdir(dir) : [];
    };
    for (const listing of [old, appealed, recent]) expect((await files(listing.imageId)).length).toBeGreaterThan(0);
    await db.query(`update listing set removed_at = now() - make_interval(days => $2) where id = any($1)`, [
      [old.id, appealed.id],
      RETENTION.hiddenListingDays + 1,
    ]);

    const hidden = t.app
      .get(RetentionRegistry)
      .all()
      .find((purge) => purge.what === 'hidden listings')!;
    expect(await hidden.purge(new Date())).toBeGreaterThanOrEqual(1);
    await waitForJobs(db);
    const left = (await db.query<{ id: string }>('select id from listing where id = any($1)', [[old.id, appealed.id, recent.id]])).map(
      (r) => r.id,
    );
    expect(left.sort()).toEqual([appealed.id, recent.id].sort());
    expect(await files(old.imageId)).toEqual([]);
    expect(existsSync(join(t.config.storage.uploadsDir, 'originals', old.imageId))).toBe(false);
    expect((await files(appealed.imageId)).length).toBeGreaterThan(0);
  });

  it('My Listings carries each hidden card its case in the page answer: the reason, the appeal, whether it may be deleted', async () => {
    const { owner, id } = await hiddenListing('Hidden card Fendt tedder');
    const live = await insertListing(db, { seller: owner.id, title: 'Live card Fendt rake' });
    type Mine = { listings: Array<{ id: string; moderation: Json | null }> };
    const mine = async () => data<Mine>(await owner.browser.call('GET', '/api/listings/mine')).listings;
    let cards = await mine();
    expect(cards.find((card) => card.id === live)?.moderation).toBeNull();
    expect(cards.find((card) => card.id === id)?.moderation).toMatchObject({
      hidden: true,
      reason: REASON,
      case_closed: false,
      may_appeal: true,
      may_delete: false,
      appeal: null,
    });
    await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'The photos are mine, taken this spring.' });
    cards = await mine();
    expect(cards.find((card) => card.id === id)?.moderation).toMatchObject({
      may_appeal: false,
      may_delete: false,
      appeal: { status: 'pending' },
    });
  });

  it('staff close a case without an appeal: audited, the owner told by e-mail and bell, then the owner may delete and no longer appeal', async () => {
    const { owner, id } = await hiddenListing('Closed case Amazone drill');
    expect((await owner.browser.call('POST', `/api/staff/listings/${id}/close-case`, {})).statusCode).toBe(403);
    const closed = await staff.browser.call('POST', `/api/staff/listings/${id}/close-case`, { reason: 'Copied photos confirmed' });
    expect(closed.statusCode).toBe(201);
    expect(data(closed)).toMatchObject({ status: 'removed', case_closed: true });
    expect((await staff.browser.call('POST', `/api/staff/listings/${id}/close-case`, {})).statusCode).toBe(409);
    const audit = data<Array<Json>>(await staff.browser.call('GET', `/api/staff/audit?target_kind=listing&target_id=${id}`));
    expect(audit.map((a) => a.action)).toEqual(['listing.close-case', 'listing.hide']);

    expect(data(await owner.browser.call('GET', `/api/listings/${id}/moderation`))).toMatchObject({
      hidden: true,
      case_closed: true,
      may_appeal: false,
      may_delete: true,
    });
    const late = await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'I only just saw the e-mail about this.' });
    expect(late.statusCode).toBe(409);
    expect(late.json()).toMatchObject({ error: APPEAL_TEXTS.caseClosed });
    await eventually(async () => {
      const found = (await readOutbox(t.config.mail.outboxDir)).find(
        (m) => m.to === owner.person.email && m.subject === 'Your listing "Closed case Amazone drill" stays hidden',
      );
      if (!found) throw new Error('owner not e-mailed yet');
      expect(found.text).toContain(REASON);
    });
    await eventually(async () => expect(JSON.stringify(await bell(owner))).toContain('Our team closed the case'));
    expect((await owner.browser.call('DELETE', `/api/listings/${id}`)).statusCode).toBe(200);
  });

  it('refuses to close a case while the owner’s appeal waits (the inbox decides it)', async () => {
    const { owner, id } = await hiddenListing('Waiting appeal Pottinger mower');
    await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'Please look again at these photos.' });
    expect((await staff.browser.call('POST', `/api/staff/listings/${id}/close-case`, {})).statusCode).toBe(409);
    const live = await insertListing(db, { seller: owner.id, title: 'Never hidden Pottinger rake' });
    expect((await staff.browser.call('POST', `/api/staff/listings/${live}/close-case`, {})).statusCode).toBe(409);
  });

  it('takes one appeal per hiding: a listing restored and hidden again can be appealed again', async () => {
    const { owner, id } = await hiddenListing('Twice hidden JCB loader');
    expect(
      (await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'First appeal: the photos are mine.' })).statusCode,
    ).toBe(201);
    const item = (await appealItem(id))!;
    await staff.browser.call('POST', `/api/staff/inbox/appeal/${item.id}/decision`, { decision: 'approve' });
    expect(
      (await staff.browser.call('POST', `/api/staff/listings/${id}/hide`, { reason: 'Price looks like a deposit scam' })).statusCode,
    ).toBe(201);
    expect(data(await owner.browser.call('GET', `/api/listings/${id}/moderation`))).toMatchObject({
      reason: 'Price looks like a deposit scam',
      may_appeal: true,
      appeal: null,
    });
    const second = await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'Second appeal: the price is real.' });
    expect(second.statusCode).toBe(201);
    expect((await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'Second appeal: the price is real.' })).statusCode).toBe(
      409,
    );
  });

  it('serves a hidden listing’s photos to its owner alone (never cached); another member and a visitor get 404', async () => {
    const owner = await signedInPerson(t);
    const listing = await postListing<{ id: string }>(owner.browser, { title: 'Own photos Massey tractor' });
    await waitForJobs(db);
    const [image] = data<{ images: Array<{ url: string | null }> }>(await owner.browser.call('GET', `/api/listings/${listing.id}`)).images;
    const url = image!.url!;
    await staff.browser.call('POST', `/api/staff/listings/${listing.id}/hide`, { reason: REASON });

    const own = await owner.browser.send('GET', url);
    expect(own.statusCode).toBe(200);
    expect(own.headers['cache-control']).toBe('private, no-store');
    expect(own.rawPayload.length).toBeGreaterThan(0);
    const stranger = await signedInPerson(t);
    expect((await stranger.browser.send('GET', url)).statusCode).toBe(404);
    expect((await new Browser(t).send('GET', url)).statusCode).toBe(404);
    expect((await staff.browser.send('GET', url)).statusCode).toBe(404);
  });

  it('refuses a hostile client on the appeal and close-case routes with a 4xx each, and records nothing', async () => {
    const { owner, id } = await hiddenListing('Hostile-tested Kuhn mower');
    const text = 'These are my own photos: I took them in the yard last Tuesday.';
    const refusals: Array<[string, () => ReturnType<Browser['call']>, number]> = [
      ['text as a number', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 12345 }), 400],
      ['text as a list', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: [text] }), 400],
      ['text as an object', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: { text } }), 400],
      ['text null', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: null }), 400],
      ['no text', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, {}), 400],
      ['a control character', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: `${text}\u0007` }), 400],
      ['far too long', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: text.repeat(200) }), 400],
      ['a body that is a list', () => owner.browser.call('POST', `/api/listings/${id}/appeal`, [text]), 400],
      ['a malformed id', () => owner.browser.call('POST', '/api/listings/not-an-id/appeal', { text }), 404],
      ['an unknown id', () => owner.browser.call('POST', '/api/listings/00000000-0000-4000-8000-000000000000/appeal', { text }), 404],
      [
        'a foreign Origin',
        () => owner.browser.call('POST', `/api/listings/${id}/appeal`, { text }, { origin: 'https://evil.example' }),
        403,
      ],
      ['a member on the staff route', () => owner.browser.call('POST', `/api/staff/listings/${id}/close-case`, {}), 403],
      ['staff, a malformed id', () => staff.browser.call('POST', '/api/staff/listings/not-an-id/close-case', {}), 404],
      ['staff, a reason as a list', () => staff.browser.call('POST', `/api/staff/listings/${id}/close-case`, { reason: ['x'] }), 400],
    ];
    for (const [what, send, status] of refusals) {
      const answer = await send();
      expect([what, answer.statusCode]).toEqual([what, status]);
      expect([what, typeof answer.json<{ error?: unknown }>().error]).toEqual([what, 'string']);
    }
    const [appeals] = await db.query<{ n: string }>('select count(*) as n from listing_appeal where listing_id = $1', [id]);
    expect(appeals?.n).toBe('0');
    // Still open: the owner may appeal, and cannot delete.
    expect(data(await owner.browser.call('GET', `/api/listings/${id}/moderation`))).toMatchObject({ may_appeal: true, may_delete: false });
  });

  it('answers 409 to an appeal about a listing that is not hidden', async () => {
    const owner = await signedInPerson(t);
    const id = await insertListing(db, { seller: owner.id, title: 'Live Lely rake' });
    const refused = await owner.browser.call('POST', `/api/listings/${id}/appeal`, { text: 'Nothing to appeal here at all.' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: APPEAL_TEXTS.notHiddenByStaff });
  });
});
