import { beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { directionControlError, REVIEW_TEXTS, REVIEW_WRITES_PER_DAY } from '../../contracts/reviews.js';
import { Browser, newPerson, signedInPerson } from '../../testing/accounts.js';
import { ControlledClock } from '../../testing/clock.js';
import { day, decideBooking, requestBooking, sendMessage, startConversation } from '../../testing/conversations.js';
import { insertListing } from '../../testing/listings.js';
import { staffMember } from '../../testing/staff.js';
import { eventually, readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';

type Member = Awaited<ReturnType<typeof signedInPerson>>;
type Json = Record<string, unknown>;
interface ReviewJson {
  id: string;
  stars: number;
  text: string;
  author: { id: string | null; name: string };
  reply: { text: string } | null;
  can_edit: boolean;
  can_reply: boolean;
}
interface PageJson {
  count: number;
  average: number | null;
  reviews: ReviewJson[];
  next_cursor: string | null;
}

const TEXT = 'Collected the ewes as agreed; healthy, well handled and the paperwork was in order.';
const HOUR = 3600_000;
const data = <T = Json>(response: { json: <R>() => R }) => response.json<{ data: T }>().data;

/** Issue 23 §3: reviews only after a real deal, once per listing, editable for 48 hours, moderated by staff. */
describe('reviews', () => {
  const clock = new ControlledClock();
  const { db, t } = useTestApp({ API_RATE_LIMIT: '100000', SEARCH_CACHE_MS: '60000' }, { clock, waitForJobs: true });
  let staff: Awaited<ReturnType<typeof staffMember>>;

  beforeAll(async () => {
    // The clock started at the real time when this file loaded; the app's two-factor check reads it, and the code
    // staffMember types comes from the real time: a slow start (a loaded machine) would put them a step apart.
    clock.set(new Date());
    staff = await staffMember(t, db);
  });
  beforeEach(() => clock.set(new Date()));

  const later = (hours: number) => clock.set(new Date(Date.now() + hours * HOUR));

  /** A seller and a buyer who talked about a listing; by default both wrote and the seller marked it sold. */
  async function talk({
    sellerWrites = true,
    sold = true,
    seller = undefined as Member | undefined,
    buyer = undefined as Member | undefined,
  } = {}) {
    seller ??= await signedInPerson(t, newPerson('Sam Seller'));
    buyer ??= await signedInPerson(t, newPerson('Bella Buyer'));
    const listingId = await insertListing(db, { seller: seller.id, title: 'Twenty Lleyn ewes' });
    const conversation = await startConversation(buyer, listingId);
    await sendMessage(buyer, conversation.id, 'Are the ewes still for sale? I could come on Saturday.');
    if (sellerWrites) await sendMessage(seller, conversation.id, 'Yes, Saturday morning suits.');
    if (sold) expect((await seller.browser.call('PATCH', `/api/listings/${listingId}/status`, { status: 'sold' })).statusCode).toBe(200);
    return { seller, buyer, listingId, conversationId: conversation.id };
  }

  const review = (who: Member, conversationId: string, stars = 5, text = TEXT) =>
    who.browser.call('POST', '/api/reviews', { conversation_id: conversationId, stars, text });
  const refusal = async (response: Promise<{ statusCode: number; json: <R>() => R }>) => {
    const answer = await response;
    return [answer.statusCode, answer.json<{ error: string }>().error];
  };
  const reviewsOf = async (memberId: string, as: Browser = new Browser(t), cursor?: string) =>
    data<PageJson>(await as.call('GET', `/api/reviews/users/${memberId}${cursor ? `?cursor=${cursor}` : ''}`));

  describe('who may review whom', () => {
    it('lets either party review the other after a sale, from 24 hours after the first message, and says why before', async () => {
      const { seller, buyer, conversationId } = await talk();
      expect(await refusal(review(buyer, conversationId))).toEqual([403, REVIEW_TEXTS.tooSoon]);
      expect(data(await buyer.browser.call('GET', `/api/reviews/eligibility?conversation_id=${conversationId}`))).toMatchObject({
        can_review: false,
        reason: 'You can review once 24 hours have passed since the first message here.',
        reviewed_name: 'Sam Seller',
      });
      later(23.9);
      expect(await refusal(review(buyer, conversationId))).toEqual([403, REVIEW_TEXTS.tooSoon]);
      later(24.1);
      const written = await review(buyer, conversationId, 4);
      expect(written.statusCode).toBe(201);
      expect(data(written)).toMatchObject({ stars: 4, text: TEXT, author: { id: buyer.id, name: 'Bella Buyer' }, can_edit: true });
      expect((await review(seller, conversationId, 5, 'Paid on collection, easy to deal with, would sell to again.')).statusCode).toBe(201);
      expect((await reviewsOf(seller.id)).reviews.map((r) => r.stars)).toEqual([4]);
      expect((await reviewsOf(buyer.id)).reviews.map((r) => r.stars)).toEqual([5]);
    });

    it('counts an accepted booking as a deal', async () => {
      const owner = await signedInPerson(t, newPerson('Owen Owner'));
      const renter = await signedInPerson(t, newPerson('Rhian Renter'));
      const listingId = await insertListing(db, {
        seller: owner.id,
        title: 'Grazing for 40 ewes',
        type: 'rent',
        category: 6,
        rentSubcategory: 'land',
        attributes: { acres: 12 },
      });
      const { conversation_id, message } = await requestBooking(renter, listingId, { from: day(3), to: day(5) });
      later(25);
      expect(await refusal(review(renter, conversation_id))).toEqual([403, REVIEW_TEXTS.bothMustWrite]);
      await sendMessage(owner, conversation_id, 'Happy to have your ewes; the gate code follows.');
      expect(await refusal(review(renter, conversation_id))).toEqual([403, REVIEW_TEXTS.noDeal]);
      await decideBooking(owner, message.id, 'accepted');
      expect((await review(renter, conversation_id)).statusCode).toBe(201);
    });

    it('refuses while only one of them wrote, or before the listing is sold, let or booked', async () => {
      const silent = await talk({ sellerWrites: false });
      const unsold = await talk({ sold: false });
      later(25);
      expect(await refusal(review(silent.buyer, silent.conversationId))).toEqual([403, REVIEW_TEXTS.bothMustWrite]);
      expect(await refusal(review(silent.seller, silent.conversationId))).toEqual([403, REVIEW_TEXTS.bothMustWrite]);
      expect(await refusal(review(unsold.buyer, unsold.conversationId))).toEqual([403, REVIEW_TEXTS.noDeal]);
      expect(
        data(await unsold.buyer.browser.call('GET', `/api/reviews/eligibility?conversation_id=${unsold.conversationId}`)),
      ).toMatchObject({
        can_review: false,
        reason: REVIEW_TEXTS.noDeal,
      });
    });

    it('refuses a conversation that is not yours, or not one at all', async () => {
      const { conversationId } = await talk();
      const stranger = await signedInPerson(t);
      later(25);
      expect(await refusal(review(stranger, conversationId))).toEqual([404, REVIEW_TEXTS.conversationNotFound]);
      expect(await refusal(review(stranger, randomUUID()))).toEqual([404, REVIEW_TEXTS.conversationNotFound]);
      const visitor = await new Browser(t).call('POST', '/api/reviews', { conversation_id: conversationId, stars: 5, text: TEXT });
      expect(visitor.statusCode).toBe(401);
    });

    it('refuses reviewing yourself', async () => {
      // The API never opens a conversation with yourself; one written straight into the tables is still refused.
      const member = await signedInPerson(t);
      const listingId = await insertListing(db, { seller: member.id, title: 'A baler' });
      const id = randomUUID();
      await db.query(
        `insert into conversation (id, starter_id, owner_id, listing_id, title, created_at, updated_at) values ($1, $2, $2, $3, 'A baler', now(), now())`,
        [id, member.id, listingId],
      );
      await db.query(
        `insert into message (id, conversation_id, sender_id, recipient_id, content, created_at) values ($1, $2, $3, $3, 'note', now() - interval '2 days')`,
        [randomUUID(), id, member.id],
      );
      expect(await refusal(review(member, id))).toEqual([403, REVIEW_TEXTS.notYourself]);
    });

    it('refuses while either of them blocks the other', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      await seller.browser.call('POST', '/api/messages/blocks', { userId: buyer.id });
      expect(await refusal(review(buyer, conversationId))).toEqual([403, REVIEW_TEXTS.blocked]);
      expect(await refusal(review(seller, conversationId))).toEqual([403, REVIEW_TEXTS.blocked]);
      await seller.browser.call('DELETE', `/api/messages/blocks/${buyer.id}`);
      expect((await review(buyer, conversationId)).statusCode).toBe(201);
    });

    it('allows one review per listing: again is a 409, and two at once leave one', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      const [a, b] = await Promise.all([review(buyer, conversationId, 5), review(buyer, conversationId, 1)]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409]);
      expect([a, b].find((r) => r.statusCode === 409)!.json()).toEqual({ success: false, error: REVIEW_TEXTS.already });
      expect(await refusal(review(buyer, conversationId))).toEqual([409, REVIEW_TEXTS.already]);
      expect((await reviewsOf(seller.id)).reviews).toHaveLength(1);
      // A deal over another listing of the same seller is another review.
      const second = await talk({ seller, buyer });
      later(50);
      expect((await review(buyer, second.conversationId)).statusCode).toBe(201);
      expect((await reviewsOf(seller.id)).reviews).toHaveLength(2);
    });

    it('refuses a member past a day’s reviews and changes, with when to come back', async () => {
      const { buyer, conversationId } = await talk();
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 5));
      for (let i = 1; i < REVIEW_WRITES_PER_DAY.limit; i += 1) {
        expect((await buyer.browser.call('PATCH', `/api/reviews/${id}`, { stars: 4, text: `${TEXT} (${i})` })).statusCode).toBe(200);
      }
      const refused = await buyer.browser.call('PATCH', `/api/reviews/${id}`, { stars: 3, text: TEXT });
      expect([refused.statusCode, refused.json(), Number(refused.headers['retry-after']) > 0]).toEqual([
        429,
        { success: false, error: REVIEW_TEXTS.tooMany },
        true,
      ]);
      const other = await talk({ buyer });
      later(50);
      expect(await refusal(review(buyer, other.conversationId))).toEqual([429, REVIEW_TEXTS.tooMany]);
    });

    it('counts replies and their changes in the same daily limit', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 5));
      const reply = (method: 'POST' | 'PATCH', i: number) =>
        seller.browser.call(method, `/api/reviews/${id}/reply`, { reply: `Thank you (${i}).` });
      expect((await reply('POST', 0)).statusCode).toBe(201);
      for (let i = 1; i < REVIEW_WRITES_PER_DAY.limit; i += 1) expect((await reply('PATCH', i)).statusCode).toBe(200);
      const refused = await reply('PATCH', REVIEW_WRITES_PER_DAY.limit);
      expect([refused.statusCode, refused.json(), Number(refused.headers['retry-after']) > 0]).toEqual([
        429,
        { success: false, error: REVIEW_TEXTS.tooMany },
        true,
      ]);
      const [shown] = (await reviewsOf(seller.id)).reviews;
      expect(shown!.reply).toMatchObject({ text: `Thank you (${REVIEW_WRITES_PER_DAY.limit - 1}).` });
      // Writing a review of their own counts in the same day.
      const other = await talk({ buyer: seller });
      later(50);
      expect(await refusal(review(seller, other.conversationId))).toEqual([429, REVIEW_TEXTS.tooMany]);
    });

    it('checks the stars and the text: bounds and control characters', async () => {
      const { buyer, conversationId } = await talk();
      later(25);
      const bad = await buyer.browser.call('POST', '/api/reviews', { conversation_id: conversationId, stars: 6, text: 'Great!' });
      expect([bad.statusCode, bad.json()]).toEqual([
        400,
        expect.objectContaining({ fields: { stars: REVIEW_TEXTS.starsRequired, text: 'Review must be at least 20 characters' } }),
      ]);
      const control = await buyer.browser.call('POST', '/api/reviews', {
        conversation_id: conversationId,
        stars: 2.5,
        text: `${TEXT}\u0007`,
      });
      expect(control.json()).toMatchObject({
        fields: { stars: REVIEW_TEXTS.starsRequired, text: 'Review must not contain control characters' },
      });
      const long = await review(buyer, conversationId, 5, 'x'.repeat(1001));
      expect(long.json()).toMatchObject({ fields: { text: 'Review must be at most 1000 characters' } });
      const notId = await buyer.browser.call('POST', '/api/reviews', { conversation_id: 'nope', stars: 5, text: TEXT });
      expect(notId.json()).toMatchObject({ fields: { conversation_id: 'conversation_id must be the id of one of your conversations' } });
    });
  });

  describe('once written', () => {
    it('can be changed by its author for 48 hours, and answered once by the member reviewed, also for 48 hours', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 3));
      const edit = (who: Member, stars: number) => who.browser.call('PATCH', `/api/reviews/${id}`, { stars, text: `${TEXT} Edited.` });
      expect(await refusal(edit(seller, 1))).toEqual([403, REVIEW_TEXTS.notYours]);
      expect(data(await edit(buyer, 4))).toMatchObject({ stars: 4, text: `${TEXT} Edited.` });

      const reply = (who: Member, method: 'POST' | 'PATCH', text: string) =>
        who.browser.call(method, `/api/reviews/${id}/reply`, { reply: text });
      expect(await refusal(reply(buyer, 'POST', 'Thanks'))).toEqual([403, REVIEW_TEXTS.replyNotYours]);
      expect(await refusal(reply(seller, 'PATCH', 'Thanks'))).toEqual([404, REVIEW_TEXTS.noReply]);
      expect(data(await reply(seller, 'POST', 'Thank you, good to deal with you.'))).toMatchObject({
        reply: { text: 'Thank you, good to deal with you.' },
      });
      expect(await refusal(reply(seller, 'POST', 'Again'))).toEqual([409, REVIEW_TEXTS.alreadyReplied]);
      expect(data(await reply(seller, 'PATCH', 'Thank you; the ewes are doing well.'))).toMatchObject({
        reply: { text: 'Thank you; the ewes are doing well.' },
      });

      later(25 + 48.1);
      expect(await refusal(edit(buyer, 1))).toEqual([409, REVIEW_TEXTS.editClosed]);
      expect(await refusal(reply(seller, 'PATCH', 'Changed much later'))).toEqual([409, REVIEW_TEXTS.replyEditClosed]);
      const [shown] = (await reviewsOf(seller.id, buyer.browser)).reviews;
      expect(shown).toMatchObject({ stars: 4, can_edit: false, reply: { text: 'Thank you; the ewes are doing well.' } });
    });

    it('tells the member reviewed in the bell and by e-mail, unless they turned e-mails off', async () => {
      const { seller, buyer, conversationId } = await talk();
      const quiet = await talk({ buyer });
      await quiet.seller.browser.call('PUT', '/api/profile/privacy', {
        privacy_settings: {
          profile_visible: true,
          contact_visible: true,
          listings_visible: true,
          email_notifications: false,
          push_notifications: true,
        },
      });
      later(25);
      await review(buyer, conversationId, 5);
      await review(buyer, quiet.conversationId, 2, 'Arrived late, but the ewes were as described in the end.');
      await waitForJobs(db);
      const bell = await eventually(async () => {
        const list = data<{ notifications: Array<{ kind: string; title: string; message: string; action_url: string }> }>(
          await seller.browser.call('GET', '/api/notifications'),
        ).notifications;
        if (!list.some((n) => n.kind === 'REVIEW')) throw new Error('no bell yet');
        return list;
      });
      expect(bell).toContainEqual(
        expect.objectContaining({
          kind: 'REVIEW',
          title: 'New Review',
          message: 'Bella Buyer left you a 5-star review about "Twenty Lleyn ewes".',
          action_url: `/profile/${seller.id}#reviews`,
        }),
      );
      const mails = await readOutbox(t.config.mail.outboxDir);
      expect(mails.filter((m) => m.to === seller.person.email && m.subject === 'Bella Buyer reviewed you on Fieldmarket')).toHaveLength(1);
      expect(mails.filter((m) => m.to === quiet.seller.person.email && m.subject.includes('reviewed you'))).toEqual([]);
      expect(
        data<{ notifications: Array<{ kind: string }> }>(await quiet.seller.browser.call('GET', '/api/notifications')).notifications,
      ).toContainEqual(expect.objectContaining({ kind: 'REVIEW' }));
    });
  });

  describe('on profiles and cards', () => {
    it('lists shown reviews newest first a page at a time; the average shows from 3 reviews, on cards and the listing page too', async () => {
      const seller = await signedInPerson(t, newPerson('Sam Seller'));
      const listingId = await insertListing(db, { seller: seller.id, title: 'Round bales of hay' });
      const buyers: Member[] = [];
      for (const [i, stars] of [4, 5, 5, 3, 4, 5, 5, 4, 4, 5, 3].entries()) {
        const deal = await talk({ seller });
        buyers.push(deal.buyer);
        later(25 + i);
        expect((await review(deal.buyer, deal.conversationId, stars)).statusCode).toBe(201);
        if (i === 1) {
          const two = await reviewsOf(seller.id);
          expect([two.count, two.average]).toEqual([2, null]);
          const card = data<{ seller_rating: unknown }>(await new Browser(t).call('GET', `/api/listings/${listingId}`));
          expect(card.seller_rating).toBeNull();
        }
      }
      const first = await reviewsOf(seller.id);
      expect([first.count, first.average, first.reviews.length]).toEqual([11, 4.3, 10]);
      expect(first.reviews[0]!.author.id).toBe(buyers.at(-1)!.id);
      const rest = await reviewsOf(seller.id, new Browser(t), first.next_cursor!);
      expect([rest.reviews.length, rest.next_cursor, rest.reviews[0]!.author.id]).toEqual([1, null, buyers[0]!.id]);
      expect(data(await new Browser(t).call('GET', `/api/listings/${listingId}`))).toMatchObject({
        seller_rating: { average: 4.3, count: 11 },
      });
      const browse = data<{ listings: Array<{ id: string; seller_rating: unknown }> }>(
        await new Browser(t).call('GET', '/api/listings?q=hay'),
      );
      expect(browse.listings.find((l) => l.id === listingId)?.seller_rating).toEqual({ average: 4.3, count: 11 });
      // A review written, hidden or restored shows on the cards at once (browse answers are reused for a while otherwise).
      const cardRating = async () =>
        data<{ listings: Array<{ id: string; seller_rating: unknown }> }>(
          await new Browser(t).call('GET', '/api/listings?q=hay'),
        ).listings.find((l) => l.id === listingId)?.seller_rating;
      const more = await talk({ seller });
      later(40);
      const { id: newest } = data<ReviewJson>(await review(more.buyer, more.conversationId, 1));
      expect(await cardRating()).toEqual({ average: 4, count: 12 });
      expect((await staff.browser.call('POST', `/api/staff/reviews/${newest}/hide`, { reason: 'Not about the deal.' })).statusCode).toBe(
        204,
      );
      expect(await cardRating()).toEqual({ average: 4.3, count: 11 });
      expect((await staff.browser.call('POST', `/api/staff/reviews/${newest}/restore`, {})).statusCode).toBe(204);
      expect(await cardRating()).toEqual({ average: 4, count: 12 });
      const badCursor = await new Browser(t).call('GET', `/api/reviews/users/${seller.id}?cursor=forged`);
      expect(badCursor.statusCode).toBe(400);
    });

    it('carry no e-mail address or phone number in any answer', async () => {
      const { seller, buyer, conversationId } = await talk();
      await seller.browser.call('PUT', '/api/profile', { full_name: 'Sam Seller', phone: '07700 900456' });
      await buyer.browser.call('PUT', '/api/profile', { full_name: 'Bella Buyer', phone: '07700 900789' });
      later(25);
      const written = await review(buyer, conversationId);
      const { id } = data<ReviewJson>(written);
      const answers = [
        written,
        await seller.browser.call('POST', `/api/reviews/${id}/reply`, { reply: 'Thank you, all the best.' }),
        await new Browser(t).call('GET', `/api/reviews/users/${seller.id}`),
        await buyer.browser.call('GET', `/api/reviews/users/${seller.id}`),
        await buyer.browser.call('GET', `/api/reviews/eligibility?conversation_id=${conversationId}`),
      ];
      for (const answer of answers) {
        expect(answer.statusCode).toBeLessThan(300);
        for (const secret of [seller.person.email, buyer.person.email, '900456', '900789']) expect(answer.body).not.toContain(secret);
      }
    });
  });

  /**
   * A hostile client: every bad input to every review route gets a specific 4xx, never a 500,
   * and changes nothing (the review rows, the member's counters and the outbox stay as they were).
   */
  describe('a hostile client', () => {
    const state = async () => ({
      reviews: await db.query('select * from review order by id'),
      tallies: await db.query('select id, review_count, review_stars_total from app_user where review_count > 0 order by id'),
      events: await db.query(`select count(*)::int as n from outbox_job where payload::text like '%reviewId%'`),
    });
    const send = (who: Member, method: 'GET' | 'POST' | 'PATCH', url: string, body: string, headers: Record<string, string> = {}) =>
      who.browser.send(method, url, body, { 'content-type': 'application/json', ...headers });
    /** Each [label, request] answers `status` with a specific message (a field's, or the error), and nothing changes. */
    async function refusesAll(
      cases: Array<[string, () => Promise<{ statusCode: number; json: <R>() => R }>, number, string]>,
    ): Promise<void> {
      const before = await state();
      const answers: Array<[string, number, string]> = [];
      for (const [label, request, ,] of cases) {
        const answer = await request();
        const json = answer.json<{ error?: string; fields?: Record<string, string> }>();
        answers.push([label, answer.statusCode, Object.values(json.fields ?? {})[0] ?? json.error ?? '']);
      }
      expect(answers).toEqual(cases.map(([label, , status, message]) => [label, status, message]));
      expect(await state()).toEqual(before);
    }

    it('refuses wrong types, bad stars and bad text on writing, editing and replying, and changes nothing', async () => {
      const { seller, buyer, conversationId } = await talk();
      const other = await talk({ seller });
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 4));
      await seller.browser.call('POST', `/api/reviews/${id}/reply`, { reply: 'Thank you, good to deal with you.' });
      const write = (body: unknown) => other.buyer.browser.call('POST', '/api/reviews', body);
      const edit = (body: unknown) => buyer.browser.call('PATCH', `/api/reviews/${id}`, body);
      const reply = (body: unknown) => seller.browser.call('PATCH', `/api/reviews/${id}/reply`, body);
      const c = other.conversationId;
      const stars = REVIEW_TEXTS.starsRequired;
      const at = (n: number) => 'x'.repeat(n);
      await refusesAll([
        ['stars 0', () => write({ conversation_id: c, stars: 0, text: TEXT }), 400, stars],
        ['stars 6', () => write({ conversation_id: c, stars: 6, text: TEXT }), 400, stars],
        ['stars 2.5', () => write({ conversation_id: c, stars: 2.5, text: TEXT }), 400, stars],
        ['stars "5"', () => write({ conversation_id: c, stars: '5', text: TEXT }), 400, stars],
        [
          'stars 1e309',
          () => send(other.buyer, 'POST', '/api/reviews', `{"conversation_id":"${c}","stars":1e309,"text":"${TEXT}"}`),
          400,
          stars,
        ],
        [
          'stars -1e309',
          () => send(other.buyer, 'POST', '/api/reviews', `{"conversation_id":"${c}","stars":-1e309,"text":"${TEXT}"}`),
          400,
          stars,
        ],
        ['stars null', () => write({ conversation_id: c, stars: null, text: TEXT }), 400, stars],
        ['stars [5]', () => write({ conversation_id: c, stars: [5], text: TEXT }), 400, stars],
        ['stars {}', () => write({ conversation_id: c, stars: { value: 5 }, text: TEXT }), 400, stars],
        ['stars true', () => write({ conversation_id: c, stars: true, text: TEXT }), 400, stars],
        ['no stars', () => write({ conversation_id: c, text: TEXT }), 400, stars],
        ['text null', () => write({ conversation_id: c, stars: 5, text: null }), 400, 'Review is required'],
        ['text 0 chars', () => write({ conversation_id: c, stars: 5, text: '' }), 400, 'Review is required'],
        ['text of spaces', () => write({ conversation_id: c, stars: 5, text: ' \n\t '.repeat(10) }), 400, 'Review is required'],
        ['text 19 chars', () => write({ conversation_id: c, stars: 5, text: at(19) }), 400, 'Review must be at least 20 characters'],
        ['text 1001 chars', () => write({ conversation_id: c, stars: 5, text: at(1001) }), 400, 'Review must be at most 1000 characters'],
        ['text a number', () => write({ conversation_id: c, stars: 5, text: 123456789012345 }), 400, 'Review must be text'],
        ['text an array', () => write({ conversation_id: c, stars: 5, text: [TEXT] }), 400, 'Review must be text'],
        ['text an object', () => write({ conversation_id: c, stars: 5, text: { text: TEXT } }), 400, 'Review must be text'],
        [
          'text with NUL',
          () => write({ conversation_id: c, stars: 5, text: `${TEXT}\u0000` }),
          400,
          'Text must not contain NUL characters',
        ],
        [
          'text with ESC',
          () => write({ conversation_id: c, stars: 5, text: `${TEXT}\u001b[2J` }),
          400,
          'Review must not contain control characters',
        ],
        [
          'text with a C1 control',
          () => write({ conversation_id: c, stars: 5, text: `${TEXT}\u0085` }),
          400,
          'Review must not contain control characters',
        ],
        [
          'text with a bidi override',
          () => write({ conversation_id: c, stars: 5, text: `${TEXT} \u202egnp.exe` }),
          400,
          directionControlError('Review', '\u202e')!,
        ],
        [
          'text with a bidi isolate',
          () => write({ conversation_id: c, stars: 5, text: `${TEXT} \u2067abc\u2069` }),
          400,
          directionControlError('Review', '\u202e')!,
        ],
        [
          'conversation_id a number',
          () => write({ conversation_id: 42, stars: 5, text: TEXT }),
          400,
          'conversation_id must be the id of one of your conversations',
        ],
        [
          'conversation_id an array',
          () => write({ conversation_id: [c], stars: 5, text: TEXT }),
          400,
          'conversation_id must be the id of one of your conversations',
        ],
        [
          'conversation_id null',
          () => write({ conversation_id: null, stars: 5, text: TEXT }),
          400,
          'conversation_id must be the id of one of your conversations',
        ],
        [
          'conversation_id not a UUID',
          () => write({ conversation_id: `${c}'--`, stars: 5, text: TEXT }),
          400,
          'conversation_id must be the id of one of your conversations',
        ],
        [
          'a body that is a list',
          () => send(other.buyer, 'POST', '/api/reviews', JSON.stringify([{ conversation_id: c, stars: 5, text: TEXT }])),
          400,
          expect.any(String) as unknown as string,
        ],
        [
          'a body that is a string',
          () => send(other.buyer, 'POST', '/api/reviews', '"five stars"'),
          400,
          expect.any(String) as unknown as string,
        ],
        [
          'a body nested 5,000 deep',
          () => send(other.buyer, 'POST', '/api/reviews', `${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}`),
          400,
          'Request body is nested too deeply (more than 20 levels).',
        ],
        [
          'a body over 1 MB',
          () => write({ conversation_id: c, stars: 5, text: at(1_100_000) }),
          413,
          expect.any(String) as unknown as string,
        ],
        ['edit: stars "4"', () => edit({ stars: '4', text: TEXT }), 400, stars],
        ['edit: stars 0', () => edit({ stars: 0, text: TEXT }), 400, stars],
        ['edit: text 1001 chars', () => edit({ stars: 4, text: at(1001) }), 400, 'Review must be at most 1000 characters'],
        ['edit: text an array', () => edit({ stars: 4, text: [TEXT] }), 400, 'Review must be text'],
        ['edit: a bidi override', () => edit({ stars: 4, text: `${TEXT}\u202d` }), 400, directionControlError('Review', '\u202e')!],
        [
          'edit: no body',
          () => buyer.browser.send('PATCH', `/api/reviews/${id}`, '', { 'content-type': 'application/json' }),
          400,
          'Request body is empty; send a JSON object.',
        ],
        ['reply: null', () => reply({ reply: null }), 400, 'Reply is required'],
        ['reply: 1 char', () => reply({ reply: 'k' }), 400, 'Reply must be at least 2 characters'],
        ['reply: 1001 chars', () => reply({ reply: at(1001) }), 400, 'Reply must be at most 1000 characters'],
        ['reply: an object', () => reply({ reply: { text: 'Thanks' } }), 400, 'Reply must be text'],
        ['reply: a control character', () => reply({ reply: 'Thanks\u0007' }), 400, 'Reply must not contain control characters'],
        ['reply: a bidi override', () => reply({ reply: 'Thanks \u202e' }), 400, directionControlError('Reply', '\u202e')!],
      ]);
      // The bounds themselves pass: 20 and 1000 characters, 1 and 5 stars, a reply of 2 and 1000.
      expect((await edit({ stars: 1, text: at(20) })).statusCode).toBe(200);
      expect((await edit({ stars: 5, text: at(1000) })).statusCode).toBe(200);
      expect((await reply({ reply: at(2) })).statusCode).toBe(200);
      expect(data<ReviewJson>(await reply({ reply: at(1000) })).reply!.text).toHaveLength(1000);
      // Right-to-left text itself is welcome.
      expect((await write({ conversation_id: c, stars: 5, text: 'שלום, the ewes were as described and healthy.' })).statusCode).toBe(201);
    });

    it('refuses forged ids: another member’s review, a conversation you are not in, random and malformed ids', async () => {
      const { seller, buyer, conversationId, listingId } = await talk();
      const theirs = await talk();
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 4));
      const { id: foreign } = data<ReviewJson>(await review(theirs.buyer, theirs.conversationId, 2));
      const stranger = await signedInPerson(t);
      await refusesAll([
        [
          'edit another member’s review',
          () => buyer.browser.call('PATCH', `/api/reviews/${foreign}`, { stars: 5, text: TEXT }),
          403,
          REVIEW_TEXTS.notYours,
        ],
        [
          'the member reviewed edits it',
          () => seller.browser.call('PATCH', `/api/reviews/${id}`, { stars: 5, text: TEXT }),
          403,
          REVIEW_TEXTS.notYours,
        ],
        [
          'reply to a review of someone else',
          () => seller.browser.call('POST', `/api/reviews/${foreign}/reply`, { reply: 'Not mine' }),
          403,
          REVIEW_TEXTS.replyNotYours,
        ],
        [
          'the author replies to their own',
          () => buyer.browser.call('POST', `/api/reviews/${id}/reply`, { reply: 'Me again' }),
          403,
          REVIEW_TEXTS.replyNotYours,
        ],
        [
          'a stranger replies',
          () => stranger.browser.call('POST', `/api/reviews/${id}/reply`, { reply: 'Hello' }),
          403,
          REVIEW_TEXTS.replyNotYours,
        ],
        ['review in a conversation you are not in', () => review(buyer, theirs.conversationId), 404, REVIEW_TEXTS.conversationNotFound],
        ['a listing id as the conversation', () => review(buyer, listingId), 404, REVIEW_TEXTS.conversationNotFound],
        ['a review id as the conversation', () => review(buyer, id), 404, REVIEW_TEXTS.conversationNotFound],
        [
          'eligibility of a conversation you are not in',
          () => stranger.browser.call('GET', `/api/reviews/eligibility?conversation_id=${conversationId}`),
          404,
          REVIEW_TEXTS.conversationNotFound,
        ],
        [
          'eligibility without an id',
          () => buyer.browser.call('GET', '/api/reviews/eligibility'),
          400,
          'conversation_id must be the id of one of your conversations',
        ],
        [
          'eligibility with two ids',
          () => buyer.browser.call('GET', `/api/reviews/eligibility?conversation_id=${conversationId}&conversation_id=${conversationId}`),
          400,
          'conversation_id must be given once',
        ],
        [
          'edit a random id',
          () => buyer.browser.call('PATCH', `/api/reviews/${randomUUID()}`, { stars: 5, text: TEXT }),
          404,
          REVIEW_TEXTS.notFound,
        ],
        [
          'edit a malformed id',
          () => buyer.browser.call('PATCH', '/api/reviews/1%20or%201=1', { stars: 5, text: TEXT }),
          404,
          REVIEW_TEXTS.notFound,
        ],
        [
          'reply to a malformed id',
          () => seller.browser.call('POST', `/api/reviews/${id.toUpperCase()}x/reply`, { reply: 'Thanks' }),
          404,
          REVIEW_TEXTS.notFound,
        ],
        ['the profile of a malformed id', () => new Browser(t).call('GET', '/api/reviews/users/%00'), 404, 'Profile not found'],
        ['the profile of a random id', () => new Browser(t).call('GET', `/api/reviews/users/${randomUUID()}`), 404, 'Profile not found'],
        [
          'a cursor twice',
          () => new Browser(t).call('GET', `/api/reviews/users/${seller.id}?cursor=a&cursor=b`),
          400,
          'cursor must be given once',
        ],
        [
          'a cursor of another sort',
          () => new Browser(t).call('GET', `/api/reviews/users/${seller.id}?cursor=${Buffer.from('[1,2]').toString('base64url')}`),
          400,
          expect.any(String) as unknown as string,
        ],
        [
          'report your own review',
          () => buyer.browser.call('POST', '/api/reports', { target_kind: 'review', target_id: id, reason: 'offensive' }),
          400,
          expect.any(String) as unknown as string,
        ],
        [
          'report a random review',
          () => seller.browser.call('POST', '/api/reports', { target_kind: 'review', target_id: randomUUID(), reason: 'offensive' }),
          404,
          expect.any(String) as unknown as string,
        ],
        [
          'report a malformed review id',
          () => seller.browser.call('POST', '/api/reports', { target_kind: 'review', target_id: ['x'], reason: 'offensive' }),
          400,
          expect.any(String) as unknown as string,
        ],
        [
          'a member hides a review',
          () => seller.browser.call('POST', `/api/staff/reviews/${id}/hide`, { reason: 'I dislike it' }),
          403,
          expect.any(String) as unknown as string,
        ],
        [
          'staff hide a random id',
          () => staff.browser.call('POST', `/api/staff/reviews/${randomUUID()}/hide`, { reason: 'Insults the seller.' }),
          404,
          REVIEW_TEXTS.notFound,
        ],
        [
          'staff hide a malformed id',
          () => staff.browser.call('POST', '/api/staff/reviews/not-an-id/hide', { reason: 'Insults the seller.' }),
          404,
          REVIEW_TEXTS.notFound,
        ],
        [
          'staff hide without a reason',
          () => staff.browser.call('POST', `/api/staff/reviews/${id}/hide`, {}),
          400,
          expect.any(String) as unknown as string,
        ],
        [
          'staff hide with a reason of a list',
          () => staff.browser.call('POST', `/api/staff/reviews/${id}/hide`, { reason: ['a', 'b'] }),
          400,
          expect.any(String) as unknown as string,
        ],
        [
          'staff restore a shown review',
          () => staff.browser.call('POST', `/api/staff/reviews/${id}/restore`, {}),
          409,
          REVIEW_TEXTS.notHidden,
        ],
      ]);
      // The reports refused were not filed.
      expect(await db.query(`select id from report where target_kind = 'review'`)).toEqual([]);
    });

    it('holds a flood of changes at once to the day’s limit: the rest are 429, none a 500, the review one of the sent', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 5));
      const flood = await Promise.all(
        Array.from({ length: REVIEW_WRITES_PER_DAY.limit + 10 }, (_, i) =>
          buyer.browser.call('PATCH', `/api/reviews/${id}`, { stars: 1 + (i % 5), text: `${TEXT} (${i})` }),
        ),
      );
      const statuses = flood.map((r) => r.statusCode);
      // The review itself counted as the first of the day.
      expect([statuses.filter((s) => s === 200).length, statuses.filter((s) => s === 429).length]).toEqual([
        REVIEW_WRITES_PER_DAY.limit - 1,
        11,
      ]);
      const [shown] = (await reviewsOf(seller.id)).reviews;
      const sent = flood.filter((r) => r.statusCode === 200).map((r) => data<ReviewJson>(r).text);
      expect(sent).toContain(shown!.text);
      const [tally] = await db.query<{ review_count: number; review_stars_total: number }>(
        'select review_count, review_stars_total from app_user where id = $1',
        [seller.id],
      );
      expect(tally).toEqual({ review_count: 1, review_stars_total: shown!.stars });
    });

    it('refuses a foreign Origin and a signed-in request without the CSRF header, writing nothing', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 4));
      const cross = { origin: 'https://evil.example' };
      await refusesAll([
        [
          'write from a foreign Origin',
          () => seller.browser.call('POST', '/api/reviews', { conversation_id: conversationId, stars: 1, text: TEXT }, cross),
          403,
          'Cross-site requests are not allowed.',
        ],
        [
          'edit from a foreign Origin',
          () => buyer.browser.call('PATCH', `/api/reviews/${id}`, { stars: 1, text: TEXT }, cross),
          403,
          'Cross-site requests are not allowed.',
        ],
        [
          'reply from a foreign Origin',
          () => seller.browser.call('POST', `/api/reviews/${id}/reply`, { reply: 'Forged' }, cross),
          403,
          'Cross-site requests are not allowed.',
        ],
        [
          'hide from a foreign Origin',
          () => staff.browser.call('POST', `/api/staff/reviews/${id}/hide`, { reason: 'Forged by a page.' }, cross),
          403,
          'Cross-site requests are not allowed.',
        ],
        [
          'edit without X-Requested-With',
          () => buyer.browser.call('PATCH', `/api/reviews/${id}`, { stars: 1, text: TEXT }, { 'x-requested-with': '' }),
          403,
          expect.any(String) as unknown as string,
        ],
        [
          'reply without X-Requested-With',
          () => seller.browser.call('POST', `/api/reviews/${id}/reply`, { reply: 'Forged' }, { 'x-requested-with': '' }),
          403,
          expect.any(String) as unknown as string,
        ],
      ]);
    });
  });

  describe('moderation and accounts', () => {
    it('can be reported; staff hide it (out of lists and averages, audited, its author told why) and restore it', async () => {
      const seller = await signedInPerson(t, newPerson('Sam Seller'));
      const deals = [await talk({ seller }), await talk({ seller }), await talk({ seller })];
      later(25);
      const ids: string[] = [];
      for (const [i, deal] of deals.entries())
        ids.push(data<ReviewJson>(await review(deal.buyer, deal.conversationId, i === 0 ? 1 : 5)).id);
      expect((await reviewsOf(seller.id)).average).toBe(3.7);
      const bad = ids[0]!;

      const own = await deals[0]!.buyer.browser.call('POST', '/api/reports', {
        target_kind: 'review',
        target_id: bad,
        reason: 'offensive',
      });
      expect(own.statusCode).toBe(400);
      const reported = await seller.browser.call('POST', '/api/reports', {
        target_kind: 'review',
        target_id: bad,
        reason: 'offensive',
        details: 'It calls me names.',
      });
      expect(reported.statusCode).toBe(201);
      const inbox = data<{ items: Array<{ id: string; target: { kind: string; id: string } }> }>(
        await staff.browser.call('GET', '/api/staff/inbox?kind=report'),
      );
      const item = inbox.items.find((entry) => entry.target.id === bad)!;
      expect(item.target.kind).toBe('review');
      // Staff read the review itself in the report's detail.
      expect(data(await staff.browser.call('GET', `/api/staff/inbox/report/${item.id}`))).toMatchObject({
        review: { id: bad, stars: 1, text: TEXT, author_name: 'Bella Buyer', reviewed_id: seller.id, hidden: false },
      });

      const reason = 'It insults the seller instead of describing the deal.';
      expect((await seller.browser.call('POST', `/api/staff/reviews/${bad}/hide`, { reason })).statusCode).toBe(403);
      expect((await staff.browser.call('POST', `/api/staff/reviews/${bad}/hide`, { reason })).statusCode).toBe(204);
      expect(await refusal(staff.browser.call('POST', `/api/staff/reviews/${bad}/hide`, { reason }))).toEqual([
        409,
        REVIEW_TEXTS.alreadyHidden,
      ]);
      const hidden = await reviewsOf(seller.id);
      expect([hidden.count, hidden.average, hidden.reviews.map((r) => r.id).sort()]).toEqual([2, null, ids.slice(1).sort()]);
      const mail = await eventually(async () => {
        const found = (await readOutbox(t.config.mail.outboxDir)).find(
          (m) => m.to === deals[0]!.buyer.person.email && m.subject.includes('hidden by our team'),
        );
        if (!found) throw new Error('author not told yet');
        return found;
      });
      expect(mail.text).toContain(reason);
      // Hidden, it can be neither changed nor reported again.
      expect(await refusal(deals[0]!.buyer.browser.call('PATCH', `/api/reviews/${bad}`, { stars: 5, text: TEXT }))).toEqual([
        404,
        REVIEW_TEXTS.notFound,
      ]);

      expect((await staff.browser.call('POST', `/api/staff/reviews/${bad}/restore`, {})).statusCode).toBe(204);
      expect(await refusal(staff.browser.call('POST', `/api/staff/reviews/${bad}/restore`, {}))).toEqual([409, REVIEW_TEXTS.notHidden]);
      const restored = await reviewsOf(seller.id);
      expect([restored.count, restored.average]).toEqual([3, 3.7]);
      const audit = data<Array<{ action: string; reason: string | null }>>(
        await staff.browser.call('GET', `/api/staff/audit?target_kind=review&target_id=${bad}`),
      );
      expect(audit.map((a) => [a.action, a.reason])).toEqual([
        ['review.restore', null],
        ['review.hide', reason],
      ]);
    });

    it('keeps a deleted author’s reviews, by "Deleted user"', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      await review(buyer, conversationId, 5);
      const deleted = await buyer.browser.call('DELETE', '/api/profile', { password: buyer.person.password });
      expect(deleted.statusCode).toBe(200);
      await waitForJobs(db);
      const page = await reviewsOf(seller.id);
      expect([page.count, page.reviews[0]?.author, page.reviews[0]?.text]).toEqual([1, { id: null, name: 'Deleted user' }, TEXT]);
      // Nor can anyone review a deleted account.
      expect(await refusal(review(seller, conversationId))).toEqual([403, REVIEW_TEXTS.otherGone]);
    });

    it('are in the export: the reviews written and those received', async () => {
      const { seller, buyer, conversationId } = await talk();
      later(25);
      const { id } = data<ReviewJson>(await review(buyer, conversationId, 4));
      await seller.browser.call('POST', `/api/reviews/${id}/reply`, { reply: 'Thank you, all the best.' });
      const exported = (who: Member) => who.browser.call('GET', '/api/profile/export').then((r) => r.json<{ data?: Json } & Json>());
      const mine = await exported(buyer);
      const theirs = await exported(seller);
      const part = (e: Json) => ((e['data'] ?? e) as { reviews: { written: Json[]; received: Json[] } }).reviews;
      expect(part(mine)).toEqual({
        written: [expect.objectContaining({ stars: 4, text: TEXT, listing: 'Twenty Lleyn ewes' })],
        received: [],
      });
      expect(part(theirs)).toEqual({ written: [], received: [expect.objectContaining({ stars: 4, reply: 'Thank you, all the best.' })] });
    });
  });
});
