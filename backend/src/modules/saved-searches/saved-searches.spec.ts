import { afterEach, describe, expect, it } from '@jest/globals';
import { EntityManager } from '@mikro-orm/postgresql';
import { randomUUID } from 'node:crypto';
import { formatDistance } from '../../contracts/listing-display.js';
import { SAVED_SEARCH_CAP, SAVED_SEARCH_TEXTS } from '../../contracts/saved-searches.js';
import { signedInPerson } from '../../testing/accounts.js';
import { ControlledClock } from '../../testing/clock.js';
import { insertListing, PLACES } from '../../testing/listings.js';
import { readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { lastDigestDue } from './digest-schedule.js';
import { NotificationsSubscriber } from '../notifications/notifications.subscriber.js';
import { SavedSearchMail } from './saved-search-mail.js';
import { SavedSearchMatcher } from './saved-search-matcher.js';
import { SavedSearchesService } from './saved-searches.service.js';

interface View {
  id: string;
  name: string;
  query: string;
  frequency: string;
  paused: boolean;
  new_matches: number;
}
type Person = Awaited<ReturnType<typeof signedInPerson>>;

const miles = (a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }) => {
  const rad = (d: number) => (d * Math.PI) / 180;
  const h =
    Math.sin(rad(b.latitude - a.latitude) / 2) ** 2 +
    Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(rad(b.longitude - a.longitude) / 2) ** 2;
  return (2 * 6_378_168 * Math.asin(Math.sqrt(h))) / 1609.344;
};

describe('saved searches', () => {
  const clock = new ControlledClock();
  const { db, t } = useTestApp({ API_RATE_LIMIT: '100000' }, { clock });
  // Each test leaves the queues drained: the matching tests publish hundreds of bell and mail jobs, and the next
  // test's sign-up waited for them within its own 15 s (it failed so in two full runs beside the browser tests).
  afterEach(() => waitForJobs(db, 180_000), 200_000);
  const save = async (person: Person, query: string, extra: Record<string, unknown> = {}) => {
    const response = await person.browser.call('POST', '/api/saved-searches', { query, ...extra });
    if (response.statusCode !== 201) throw new Error(`save failed: ${response.body}`);
    return response.json<{ data: View }>().data;
  };
  const matcher = () => t.app.get(SavedSearchMatcher);
  const matched = async (searchId: string) =>
    (
      await db.query<{ listing_id: string; occasion: string }>(
        `select h.listing_id, h.occasion from saved_search_hit h join saved_search s on h.searches @> array[s.number]
           where s.id = $1 order by h.matched_at, h.id`,
        [searchId],
      )
    ).map((row) => `${row.listing_id}:${row.occasion}`);
  const mailsTo = async (email: string) =>
    (await readOutbox(t.config.mail.outboxDir)).filter((mail) => mail.to === email && mail.messageId.startsWith('<saved-search-alert-'));

  describe('the API', () => {
    it('saves the browse query with a suggested name, lists it, edits, pauses and deletes it', async () => {
      const jane = await signedInPerson(t);
      const saved = await save(
        jane,
        `q=Massey+Ferguson+tractors&category=equipment&location=${PLACES.taunton.id}&radius=25&max_price=40000`,
      );
      expect(saved.name).toBe('Massey Ferguson tractors in Equipment within 25 miles of Taunton under £40,000');
      expect(new URLSearchParams(saved.query).get('q')).toBe('Massey Ferguson tractors');
      const changed = await jane.browser.call('PATCH', `/api/saved-searches/${saved.id}`, {
        name: 'Tractors',
        frequency: 'daily',
        paused: true,
      });
      expect(changed.json()).toMatchObject({ data: { name: 'Tractors', frequency: 'daily', paused: true } });
      expect((await jane.browser.call('GET', '/api/saved-searches')).json()).toMatchObject({ data: [{ id: saved.id, name: 'Tractors' }] });
      expect((await jane.browser.call('DELETE', `/api/saved-searches/${saved.id}`)).statusCode).toBe(200);
      expect((await jane.browser.call('GET', '/api/saved-searches')).json()).toMatchObject({ data: [] });
    });

    it('refuses a bad query by parameter, a bad frequency, and visitors', async () => {
      const jane = await signedInPerson(t);
      const badPrice = await jane.browser.call('POST', '/api/saved-searches', { query: 'min_price=500&max_price=100' });
      expect(badPrice.statusCode).toBe(400);
      expect(badPrice.json()).toMatchObject({ fields: { max_price: 'max_price must not be below min_price' } });
      const badPlace = await jane.browser.call('POST', '/api/saved-searches', { query: 'location=999999999' });
      expect(badPlace.json()).toMatchObject({ fields: { location: 'location must be a place id from the list' } });
      const badFrequency = await jane.browser.call('POST', '/api/saved-searches', { query: 'q=plough', frequency: 'hourly' });
      expect(badFrequency.json()).toMatchObject({ fields: { frequency: 'frequency must be one of instant, daily, weekly, off' } });
      // A query sent as an object is told what it must be, not that it is too long.
      const objectQuery = await jane.browser.call('POST', '/api/saved-searches', { query: { q: 'plough' } });
      expect(objectQuery.json()).toMatchObject({ fields: { query: 'query must be the browse page’s query string' } });
      // A direction override would show the name backwards (the shared one-line text rule).
      const turned = await jane.browser.call('POST', '/api/saved-searches', { query: 'q=plough', name: 'Ploughs \u202enotnuaT raen' });
      expect(turned.json()).toMatchObject({ fields: { name: 'Name must not contain control characters' } });
      const visitor = await t.app.inject({ method: 'GET', url: '/api/saved-searches' });
      expect(visitor.statusCode).toBe(401);
    });

    it("answers 404 for another user's search, whatever the call, and changes nothing", async () => {
      const jane = await signedInPerson(t);
      const mallory = await signedInPerson(t);
      const janes = await save(jane, 'q=plough');
      for (const [method, path, body] of [
        ['GET', `/api/saved-searches/${janes.id}`, undefined],
        ['PATCH', `/api/saved-searches/${janes.id}`, { name: 'Mine now' }],
        ['POST', `/api/saved-searches/${janes.id}/seen`, undefined],
        ['DELETE', `/api/saved-searches/${janes.id}`, undefined],
        ['GET', `/api/saved-searches/${randomUUID()}`, undefined],
      ] as const) {
        const response = await mallory.browser.call(method, path, body);
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ error: SAVED_SEARCH_TEXTS.notFound });
      }
      expect((await jane.browser.call('GET', `/api/saved-searches/${janes.id}`)).json()).toMatchObject({ data: { name: 'plough' } });
    });

    it(`keeps at most ${SAVED_SEARCH_CAP} per user, with a clear message`, async () => {
      const jane = await signedInPerson(t);
      for (let i = 0; i < SAVED_SEARCH_CAP; i++) await save(jane, `q=plough${i}`);
      const over = await jane.browser.call('POST', '/api/saved-searches', { query: 'q=one+more' });
      expect(over.statusCode).toBe(409);
      expect(over.json()).toMatchObject({ error: SAVED_SEARCH_TEXTS.capReached });
    });

    it('suggests a name for a browse query, and refuses a query given twice by name instead of failing', async () => {
      const jane = await signedInPerson(t);
      const suggested = await jane.browser.call(
        'GET',
        `/api/saved-searches/suggested-name?query=${encodeURIComponent('q=tractor&category=equipment')}`,
      );
      expect(suggested.statusCode).toBe(200);
      expect(suggested.json<{ data: { name: string } }>().data.name).toMatch(/tractor/i);
      const twice = await jane.browser.call('GET', '/api/saved-searches/suggested-name?query=q%3Da&query=q%3Db');
      expect(twice.statusCode).toBe(400);
      expect(twice.json()).toMatchObject({ fields: { query: 'query must be given once' } });
    });
  });

  describe('matching', () => {
    it('matches as browse does: words in any form, category, type, price, field ranges, radius edges', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const exeter = miles(PLACES.taunton, PLACES.exeter);
      const searches = {
        tractors: await save(jane, 'q=tractors'),
        tractor: await save(jane, 'q=Massey+tractor'),
        equipment: await save(jane, 'category=equipment&type=sale'),
        rentals: await save(jane, 'type=rent'),
        cheap: await save(jane, 'max_price=5000'),
        range: await save(jane, 'min_price=9000&max_price=11000'),
        hours: await save(jane, 'category=equipment&hours_max=3000'),
        justIn: await save(jane, `location=${PLACES.taunton.id}&radius=${Math.ceil(exeter)}`),
        justOut: await save(jane, `location=${PLACES.taunton.id}&radius=${Math.floor(exeter)}`),
        orWords: await save(jane, 'q=baler+or+tractor'),
        notWord: await save(jane, 'q=tractor+-massey'),
      };
      const listing = await insertListing(db, {
        seller: seller.id,
        title: 'Massey Ferguson 5713 tractor',
        category: 2,
        pricePence: 1_000_000,
        place: 'exeter',
        attributes: { hours: 2500 },
      });
      await matcher().match(listing, 'published');
      const hit = async (view: View) => (await matched(view.id)).length === 1;
      const outcome = Object.fromEntries(await Promise.all(Object.entries(searches).map(async ([name, view]) => [name, await hit(view)])));
      expect(outcome).toEqual({
        tractors: true,
        tractor: true,
        equipment: true,
        rentals: false,
        cheap: false,
        range: true,
        hours: true,
        justIn: true,
        justOut: false,
        orWords: true,
        notWord: false,
      });
      // The browse page of each search agrees.
      for (const [name, view] of Object.entries(searches)) {
        const page = (await t.app.inject({ method: 'GET', url: `/api/listings?${view.query}` })).json<{
          data: { listings: Array<{ id: string }> };
        }>();
        expect([name, page.data.listings.some((card) => card.id === listing)]).toEqual([name, outcome[name]]);
      }
    });

    it('compares a price given in a unit as browse does: a lot priced as a whole reaches "up to £120 a head"', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const perHead = await save(jane, 'category=livestock&max_price=120&price_unit=per-head');
      const lot = async (pricePence: number) =>
        insertListing(db, {
          seller: seller.id,
          title: 'Twenty Texel ewe lambs',
          category: 3, // livestock
          pricePence,
          priceUnit: 'total',
          attributes: { head_count: 20 },
        });
      const cheap = await lot(200_000); // £100 a head
      const dear = await lot(260_000); // £130 a head
      for (const id of [cheap, dear]) await matcher().match(id, 'published');
      expect(await matched(perHead.id)).toEqual([`${cheap}:new`]);
      const page = (await t.app.inject({ method: 'GET', url: `/api/listings?${perHead.query}` })).json<{
        data: { listings: Array<{ id: string }> };
      }>();
      expect(page.data.listings.map((card) => card.id).filter((id) => id === cheap || id === dear)).toEqual([cheap]);
    });

    it('works out the match columns of a search stored without them (before they existed), then matches it', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const search = await save(jane, `q=water+bowser&location=${PLACES.taunton.id}&radius=25`);
      await db.query(
        `update saved_search set match_version = null, words = null, radius_metres = null, near_latitude = null,
           near_longitude = null, near_cosine = null where id = $1`,
        [search.id],
      );
      const listing = await insertListing(db, { seller: seller.id, title: 'Water bowser, 1,000 litres', place: 'taunton' });
      await matcher().match(listing, 'published');
      expect(await matched(search.id)).toEqual([]);
      await t.app.get(SavedSearchesService).prepare();
      await matcher().match(listing, 'published');
      expect(await matched(search.id)).toEqual([`${listing}:new`]);
      const far = await insertListing(db, { seller: seller.id, title: 'Water bowser, 2,000 litres', place: 'exeter' });
      await matcher().match(far, 'published');
      expect(await matched(search.id)).toEqual([`${listing}:new`]);
    });

    it('matches a deleted or paused search no more (its prune rows go with it, no foreign key ties matches to it), and a resumed one again', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const deleted = await save(jane, 'q=pig+ark');
      const paused = await save(jane, 'q=ark');
      const first = await insertListing(db, { seller: seller.id, title: 'Pig ark, galvanised' });
      await matcher().match(first, 'published');
      expect([await matched(deleted.id), await matched(paused.id)]).toEqual([[`${first}:new`], [`${first}:new`]]);
      const numbers = (
        await db.query<{ number: number }>('select number from saved_search where id = any($1)', [[deleted.id, paused.id]])
      ).map((row) => row.number);
      expect((await jane.browser.call('DELETE', `/api/saved-searches/${deleted.id}`)).statusCode).toBe(200);
      expect((await jane.browser.call('PATCH', `/api/saved-searches/${paused.id}`, { paused: true })).statusCode).toBe(200);
      expect(await db.query('select number from saved_search_prune where number = any($1)', [numbers])).toEqual([]);
      const second = await insertListing(db, { seller: seller.id, title: 'Pig ark, insulated' });
      await matcher().match(second, 'published');
      // Neither hears of it (other tests' searches may).
      expect(await db.query('select searches from saved_search_hit where listing_id = $1 and searches && $2', [second, numbers])).toEqual(
        [],
      );
      expect((await jane.browser.call('PATCH', `/api/saved-searches/${paused.id}`, { paused: false })).statusCode).toBe(200);
      const third = await insertListing(db, { seller: seller.id, title: 'Pig ark, timber' });
      await matcher().match(third, 'published');
      expect(await matched(paused.id)).toEqual([`${first}:new`, `${third}:new`]);
    });

    it('never tells the seller about their own listing, nor about one that is not live', async () => {
      const jane = await signedInPerson(t);
      const mine = await save(jane, 'q=harrow');
      const own = await insertListing(db, { seller: jane.id, title: 'Disc harrow' });
      const seller = await signedInPerson(t);
      const sold = await insertListing(db, { seller: seller.id, title: 'Spring tine harrow', status: 'sold' });
      await matcher().match(own, 'published');
      await matcher().match(sold, 'published');
      expect(await matched(mine.id)).toEqual([]);
    });

    it('records each listing once per search, and each price drop once, however often the job runs', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const search = await save(jane, 'q=cultivator');
      const listing = await insertListing(db, { seller: seller.id, title: 'Cultivator, 3 m', pricePence: 500_000 });
      expect(await matcher().match(listing, 'published')).toBeGreaterThan(0);
      expect(await matcher().match(listing, 'published')).toBe(0);
      await waitForJobs(db); // the bell tells the price of the moment
      await db.query('update listing set price_pence = 450000 where id = $1', [listing]);
      expect(await matcher().match(listing, 'price-changed')).toBeGreaterThan(0);
      expect(await matcher().match(listing, 'price-changed')).toBe(0);
      await db.query('update listing set price_pence = 470000 where id = $1', [listing]);
      await matcher().match(listing, 'price-changed'); // a rise is no drop
      expect(await matched(search.id)).toEqual([`${listing}:new`, `${listing}:drop:450000`]);
      await waitForJobs(db);
      const bell = (await jane.browser.call('GET', '/api/notifications')).json<{ data: { notifications: Array<{ message: string }> } }>();
      expect(bell.data.notifications.map((n) => n.message)).toEqual([
        '"Cultivator, 3 m" (your saved search "cultivator") is now £4,500.',
        '"Cultivator, 3 m" matches your saved search "cultivator": £5,000.',
      ]);
    });

    it('prunes no true match: over random listings and searches, it records exactly what each search’s own SQL finds', async () => {
      const seller = await signedInPerson(t);
      // Two owners: more searches than one may keep.
      const owners = [await signedInPerson(t), await signedInPerson(t)];
      let seed = 42;
      const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
      const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
      const places = Object.keys(PLACES) as Array<keyof typeof PLACES>;
      const words = ['tractor', 'tractors', 'baler', 'plough', 'heifers', 'grazing', 'trailer', 'ewes'];
      const queries: string[] = [];
      for (let i = 0; i < 80; i++) {
        const params = new URLSearchParams();
        if (random() < 0.6) params.set('q', random() < 0.3 ? `${pick(words)} ${pick(words)}` : pick(words));
        if (random() < 0.4) params.set('category', pick(['equipment', 'livestock', 'land']));
        if (random() < 0.3) params.set('type', pick(['sale', 'rent']));
        if (random() < 0.4) params.set('max_price', String(pick([2000, 8000, 20000])));
        if (random() < 0.2) params.set('min_price', String(pick([100, 1000])));
        if (random() < 0.5) {
          params.set('location', PLACES[pick(places)].id);
          params.set('radius', String(pick([5, 10, 20, 25, 40, 200])));
        }
        // Every other kind of filter, so each shape of query is confirmed in the batch beside the others.
        if (random() < 0.15) params.set('verified', 'true');
        if (random() < 0.15) params.set('featured', 'true');
        if (random() < 0.15) params.set('date', pick(['today', 'week']));
        if (params.get('category') === 'equipment') {
          if (random() < 0.4) params.set(pick(['hours_min', 'hours_max']), String(pick([1000, 2500, 4000])));
          if (random() < 0.3) params.set('condition', pick(['good', 'fair']));
          if (random() < 0.3) params.set('cesar', pick(['yes', 'no']));
        }
        if (params.get('category') === 'livestock') {
          if (random() < 0.4) params.set('species', pick(['cattle', 'sheep']));
          if (random() < 0.4) params.set('health_schemes', pick(['bvd', 'ibr,lepto', 'johnes,bvd']));
          if (random() < 0.3) params.set(pick(['head_count_min', 'head_count_max']), String(pick([5, 20])));
          // A price per head: lots priced as a whole are compared by their head count.
          if (random() < 0.5) {
            params.set('max_price', String(pick([100, 800])));
            params.set('price_unit', 'per-head');
          }
        }
        queries.push(params.toString());
      }
      for (const [i, query] of queries.entries()) await save(owners[i % 2] as Person, query);
      const verified = await signedInPerson(t);
      await db.query('update app_user set business_verified_at = now() where id = $1', [verified.id]);
      const listings: string[] = [];
      for (let i = 0; i < 40; i++) {
        listings.push(
          await insertListing(db, {
            seller: pick([seller.id, verified.id]),
            title: `${pick(words)} ${pick(['for sale', 'wanted', 'good order'])} ${pick(words)}`,
            category: pick([1, 2, 3]),
            pricePence: pick([50_000, 500_000, 1_500_000, 3_000_000]),
            place: pick(places),
            featured: random() < 0.3,
            publishedAt: new Date(Date.now() - pick([0, 3, 20]) * 24 * 3600 * 1000),
            priceUnit: pick(['total', 'total', 'per-head']),
            attributes: {
              hours: pick([800, 2500, 3000, 6000]),
              condition: pick(['good', 'fair', 'excellent']),
              cesar: random() < 0.5,
              species: pick(['cattle', 'sheep', 'pigs']),
              health_schemes: pick([[], ['bvd'], ['ibr', 'neospora'], ['johnes']]),
              head_count: pick([1, 10, 40]),
            },
          }),
        );
      }
      for (const listing of listings) await matcher().match(listing, 'published');
      const recorded = new Set(
        (
          await db.query<{ saved_search_id: string; listing_id: string }>(
            `select s.id as saved_search_id, h.listing_id from saved_search_hit h join saved_search s on h.searches @> array[s.number]
               where s.user_id = any($1)`,
            [owners.map((owner) => owner.id)],
          )
        ).map((row) => `${row.saved_search_id}:${row.listing_id}`),
      );
      // The naive answer: every search's browse page, unpruned.
      const expected = new Set<string>();
      const views: View[] = [];
      for (const owner of owners) views.push(...(await owner.browser.call('GET', '/api/saved-searches')).json<{ data: View[] }>().data);
      for (const view of views) {
        const page = (await t.app.inject({ method: 'GET', url: `/api/listings?${view.query}&limit=50` })).json<{
          data: { listings: Array<{ id: string }> };
        }>();
        for (const card of page.data.listings) if (listings.includes(card.id)) expected.add(`${view.id}:${card.id}`);
      }
      expect(expected.size).toBeGreaterThan(20);
      expect([...recorded].sort()).toEqual([...expected].sort());
    });
  });

  describe('e-mail', () => {
    it('mails an instant search at once, then at most once in 15 minutes, with one-click unsubscribe for it', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const search = await save(jane, 'q=slurry+tanker');
      const other = await save(jane, 'q=muck+spreader');
      clock.set(new Date());
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Slurry tanker 2000 gallon' }), 'published');
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Slurry tanker 2600 gallon' }), 'published');
      await waitForJobs(db);
      let mails = await mailsTo(jane.person.email);
      expect(mails.map((mail) => mail.subject)).toEqual(['A new match for your saved search "slurry tanker"']);
      await matcher().remindInstant();
      await waitForJobs(db);
      expect(await mailsTo(jane.person.email)).toHaveLength(1);
      clock.set(new Date(clock.now().getTime() + 15 * 60_000));
      await matcher().remindInstant();
      await waitForJobs(db);
      mails = await mailsTo(jane.person.email);
      expect(mails.map((mail) => mail.subject)).toEqual([
        'A new match for your saved search "slurry tanker"',
        'A new match for your saved search "slurry tanker"',
      ]);
      expect(mails[1]?.text).toContain('Slurry tanker 2600 gallon');
      const summary = mails[0] as unknown as { listUnsubscribe: string; oneClickUnsubscribe: boolean };
      expect(summary.oneClickUnsubscribe).toBe(true);
      const link = new URL(summary.listUnsubscribe);
      const token = link.searchParams.get('token') as string;
      expect(token).toMatch(/^[\w-]{43}$/);
      // Single purpose: only that search stops; a guessed or altered token does nothing.
      // (Its first character changed: the last one of a 256-bit token carries padding bits, and was sometimes already 'A'.)
      const altered = `${token.startsWith('A') ? 'B' : 'A'}${token.slice(1)}`;
      const guessed = await t.app.inject({ method: 'POST', url: `/api/saved-searches/unsubscribe?token=${altered}` });
      expect(guessed.statusCode).toBe(400);
      expect(guessed.json()).toMatchObject({ fields: { token: SAVED_SEARCH_TEXTS.badToken } });
      // As a mail app sends it (RFC 8058): a form body, no cookie, no Origin. A form elsewhere is still refused.
      const elsewhere = await t.app.inject({
        method: 'POST',
        url: '/api/newsletter/unsubscribe',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(elsewhere.statusCode).toBe(415);
      const done = await t.app.inject({
        method: 'POST',
        url: `${link.pathname}${link.search}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
      expect(done.json()).toMatchObject({ data: { message: SAVED_SEARCH_TEXTS.unsubscribed } });
      const after = (await jane.browser.call('GET', '/api/saved-searches')).json<{ data: View[] }>().data;
      expect(Object.fromEntries(after.map((view) => [view.id, view.frequency]))).toEqual({ [search.id]: 'off', [other.id]: 'instant' });
    });

    it('mails nothing that matched while its e-mails were off once they are back on, only what matches after', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const instant = await save(jane, 'q=bale+spike');
      const daily = await save(jane, 'q=bale+trailer', { frequency: 'daily' });
      clock.set(new Date());
      for (const search of [instant, daily]) {
        const off = await jane.browser.call('PATCH', `/api/saved-searches/${search.id}`, { frequency: 'off' });
        expect(off.statusCode).toBe(200);
      }
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Bale spike, front loader' }), 'published');
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Flat bale trailer' }), 'published');
      await jane.browser.call('PATCH', `/api/saved-searches/${daily.id}`, { frequency: 'daily' });
      await jane.browser.call('PATCH', `/api/saved-searches/${instant.id}`, { frequency: 'instant' });
      await matcher().remindInstant();
      await t.app.get(SavedSearchMail).gatherDigest('daily', new Date(clock.now().getTime() + 60_000));
      await waitForJobs(db);
      expect(await mailsTo(jane.person.email)).toEqual([]);
      // Their profile still counts them as new.
      const views = (await jane.browser.call('GET', '/api/saved-searches')).json<{ data: View[] }>().data;
      expect(views.map((view) => view.new_matches)).toEqual([1, 1]);
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Bale spike, three-point linkage' }), 'published');
      await waitForJobs(db);
      const mails = await mailsTo(jane.person.email);
      expect(mails.map((mail) => mail.subject)).toEqual(['A new match for your saved search "bale spike"']);
      expect(mails[0]?.text).toContain('Bale spike, three-point linkage');
      expect(mails[0]?.text).not.toContain('front loader');
    });

    it('still rings the bell for a search whose stored query no longer reads (an older version), and edits it with a clear 400, never a 500', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const search = await save(jane, 'q=sheep+hurdles');
      await db.query(`update saved_search set query = '{"version": 0, "params": {}}' where id = $1`, [search.id]);
      const listing = await insertListing(db, { seller: seller.id, title: 'Sheep hurdles, galvanised', pricePence: 20_000 });
      await matcher().match(listing, 'published');
      await waitForJobs(db);
      const bell = (await jane.browser.call('GET', '/api/notifications')).json<{ data: { notifications: Array<{ message: string }> } }>();
      expect(bell.data.notifications.map((n) => n.message)).toEqual([
        '"Sheep hurdles, galvanised" matches your saved search "sheep hurdles": £200.',
      ]);
      // The listing's bell job run again (a retry) tells nobody twice.
      const [match] = await db.query<{ matched_at: Date }>('select matched_at from saved_search_hit where listing_id = $1', [listing]);
      await t.app.get(NotificationsSubscriber).savedSearchesMatched({
        id: randomUUID(),
        name: 'saved-search.listing-matched',
        occurredAt: new Date().toISOString(),
        payload: { listingId: listing, matchedAt: (match as { matched_at: Date }).matched_at.toISOString() },
      });
      const again = (await jane.browser.call('GET', '/api/notifications')).json<{ data: { notifications: unknown[] } }>();
      expect(again.data.notifications).toHaveLength(1);
      // Its settings still change; a name to be suggested from the query it no longer reads is refused, clearly.
      const paused = await jane.browser.call('PATCH', `/api/saved-searches/${search.id}`, { paused: true, frequency: 'daily' });
      expect(paused.statusCode).toBe(200);
      const unnamed = await jane.browser.call('PATCH', `/api/saved-searches/${search.id}`, { name: '' });
      expect(unnamed.statusCode).toBe(400);
      expect(unnamed.json()).toMatchObject({ fields: { name: SAVED_SEARCH_TEXTS.outdatedQuery } });
      const renamed = await jane.browser.call('PATCH', `/api/saved-searches/${search.id}`, { name: 'Hurdles' });
      expect([renamed.statusCode, renamed.json<{ data: View }>().data.name]).toEqual([200, 'Hurdles']);
    });

    it('rings the bell once for a match an earlier version queued as one event a search (saved-search.matched)', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      const search = await save(jane, 'q=feed+barrier');
      const listing = await insertListing(db, { seller: seller.id, title: 'Feed barrier, 4.8 m', pricePence: 30_000 });
      // Its outbox entry as the earlier version wrote it, still queued when this version's worker starts.
      const events = t.app.get(DomainEvents);
      await t.app
        .get(EntityManager)
        .fork()
        .transactional(async (tx) =>
          events.publish(tx, 'saved-search.matched', { savedSearchId: search.id, listingId: listing, occasion: 'new' }),
        );
      await waitForJobs(db);
      const entries = await db.query<{ completed: boolean; failed: boolean }>(
        `select completed_at is not null as completed, failed_at is not null as failed from outbox_job where name = 'notifications.saved-search-match'`,
      );
      expect(entries).toEqual([{ completed: true, failed: false }]);
      const bell = async () =>
        (await jane.browser.call('GET', '/api/notifications')).json<{ data: { notifications: Array<{ message: string }> } }>().data
          .notifications;
      expect((await bell()).map((n) => n.message)).toEqual(['"Feed barrier, 4.8 m" matches your saved search "feed barrier": £300.']);
      // The match it told of, recorded again by this version's matching, rings no second time.
      await matcher().match(listing, 'published');
      await waitForJobs(db);
      expect(await bell()).toHaveLength(1);
    });

    it('sends a daily digest at 07:00 UK time, one e-mail per user with a section per search, once; nothing when nothing is new', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      await save(jane, 'q=round+bales', { frequency: 'daily' });
      await save(jane, `q=hay+rake&location=${PLACES.taunton.id}&radius=50`, { frequency: 'daily' });
      await matcher().match(
        await insertListing(db, {
          seller: seller.id,
          title: 'Round bales of hay',
          pricePence: 3_500,
          priceUnit: 'per-bag',
          vat: 'plus-vat',
        }),
        'published',
      );
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Hay rake, 4 m' }), 'published');
      const gone = await insertListing(db, { seller: seller.id, title: 'Hay rake, 6 m' });
      await matcher().match(gone, 'published');
      await db.query(`update listing set status = 'sold' where id = $1`, [gone]);
      await waitForJobs(db);
      expect(await mailsTo(jane.person.email)).toEqual([]);
      const digests = t.app.get(SavedSearchMail);
      const due = lastDigestDue('daily', new Date(Date.now() + 24 * 3600_000));
      await digests.gatherDigest('daily', due);
      await digests.gatherDigest('daily', due);
      await waitForJobs(db);
      const mails = await mailsTo(jane.person.email);
      expect(mails.map((mail) => mail.subject)).toEqual(['Your daily saved-search digest: 2 new matches']);
      expect(mails[0]?.text).toContain('Your saved search "round bales"');
      expect(mails[0]?.text).toContain('Your saved search "hay rake within 50 miles of Taunton"');
      expect(mails[0]?.text).not.toContain('Hay rake, 6 m');
      // Price with unit and VAT, place and distance, written as the site writes them.
      expect(mails[0]?.text).toContain('£35 · per bag + VAT · Taunton, England\n');
      expect(mails[0]?.text).toContain('£1,000 · No VAT · Taunton, England · Less than a mile away');
      // Each section links its browse page once.
      expect(mails[0]?.text.match(/\/browse\?q=round\+bales/g)).toHaveLength(1);
      expect(mails[0]?.text.match(/\/browse\?q=hay\+rake/g)).toHaveLength(1);
      // The next day, nothing new: nothing sent.
      await digests.gatherDigest('daily', new Date(due.getTime() + 24 * 3600_000));
      await waitForJobs(db);
      expect(await mailsTo(jane.person.email)).toHaveLength(1);
    });

    it("sends several users' digests from one job, each with its own searches and distances from its own place; a refused address holds up nobody", async () => {
      const seller = await signedInPerson(t);
      const jane = await signedInPerson(t);
      const john = await signedInPerson(t);
      const refused = await signedInPerson(t);
      await save(jane, `q=pig+ark&location=${PLACES.taunton.id}&radius=50`, { frequency: 'daily' });
      await save(john, `q=pig+ark&location=${PLACES.exeter.id}&radius=50`, { frequency: 'daily' });
      await save(john, 'q=feed+trough', { frequency: 'daily' });
      await save(refused, 'q=pig+ark', { frequency: 'daily' });
      await db.query(`update app_user set email = 'refused-' || id || '@farm.invalid' where id = $1`, [refused.id]);
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Pig ark, galvanised', place: 'bridgwater' }), 'published');
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Feed trough, 3 m' }), 'published');
      await waitForJobs(db);
      const sendJobs = async () =>
        Number(
          (
            await db.query<{ n: string }>(
              `select count(*) as n from outbox_job where name in ('saved-searches.send-mail', 'saved-searches.send-mails')`,
            )
          )[0]?.n,
        );
      const jobsBefore = await sendJobs();
      const digests = t.app.get(SavedSearchMail);
      await digests.gatherDigest('daily', lastDigestDue('daily', new Date(Date.now() + 3 * 24 * 3600_000)));
      await waitForJobs(db);
      // The three users' e-mails (one refused by its domain) are read and sent by one job, not one job each.
      expect((await sendJobs()) - jobsBefore).toBe(1);
      const [janes] = await mailsTo(jane.person.email);
      const [johns] = await mailsTo(john.person.email);
      // As the site's cards write it: metres to a tenth, miles to a tenth.
      const away = (from: { latitude: number; longitude: number }) => formatDistance(Math.round(miles(from, PLACES.bridgwater) * 10) / 10);
      expect(janes?.subject).toBe('Your daily saved-search digest: 1 new match');
      expect(janes?.text).toContain(`Bridgwater, England · ${away(PLACES.taunton)}\n`);
      expect(janes?.text).not.toContain('Feed trough');
      expect(johns?.subject).toBe('Your daily saved-search digest: 2 new matches');
      expect(johns?.text).toContain(`Bridgwater, England · ${away(PLACES.exeter)}\n`);
      expect(johns?.text).toContain('Your saved search "feed trough"');
      expect(johns?.text).toContain('Taunton, England\n');
    });

    it('sends nothing to a user who turned e-mail off, or who is suspended', async () => {
      const jane = await signedInPerson(t);
      const seller = await signedInPerson(t);
      await save(jane, 'q=grain+trailer');
      await db.query('update app_user set email_notifications = false where id = $1', [jane.id]);
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Grain trailer 14 t' }), 'published');
      const sam = await signedInPerson(t);
      const sams = await save(sam, 'q=grain+trailer');
      await db.query(`update app_user set suspended_at = now(), suspension_reason = 'test' where id = $1`, [sam.id]);
      await matcher().match(await insertListing(db, { seller: seller.id, title: 'Grain trailer 10 t' }), 'published');
      await waitForJobs(db);
      expect(await mailsTo(jane.person.email)).toEqual([]);
      expect(await mailsTo(sam.person.email)).toEqual([]);
      expect(await matched(sams.id)).toEqual([]);
    });
  });

  describe('digest times (07:00 UK time)', () => {
    it('is 07:00 BST (06:00 UTC) after the clocks go forward on 29 March 2026, and 07:00 GMT before', () => {
      expect(lastDigestDue('daily', new Date('2026-03-28T07:30:00Z')).toISOString()).toBe('2026-03-28T07:00:00.000Z');
      expect(lastDigestDue('daily', new Date('2026-03-29T06:30:00Z')).toISOString()).toBe('2026-03-29T06:00:00.000Z');
      expect(lastDigestDue('daily', new Date('2026-03-29T05:59:00Z')).toISOString()).toBe('2026-03-28T07:00:00.000Z');
    });

    it('is 07:00 GMT after the clocks go back on 25 October 2026, and 07:00 BST before', () => {
      expect(lastDigestDue('daily', new Date('2026-10-24T06:30:00Z')).toISOString()).toBe('2026-10-24T06:00:00.000Z');
      expect(lastDigestDue('daily', new Date('2026-10-25T06:30:00Z')).toISOString()).toBe('2026-10-24T06:00:00.000Z');
      expect(lastDigestDue('daily', new Date('2026-10-25T07:00:00Z')).toISOString()).toBe('2026-10-25T07:00:00.000Z');
    });

    it('is Monday 07:00 for weekly digests, across the change', () => {
      expect(lastDigestDue('weekly', new Date('2026-03-29T12:00:00Z')).toISOString()).toBe('2026-03-23T07:00:00.000Z');
      expect(lastDigestDue('weekly', new Date('2026-03-30T06:00:00Z')).toISOString()).toBe('2026-03-30T06:00:00.000Z');
      expect(lastDigestDue('weekly', new Date('2026-10-26T06:59:00Z')).toISOString()).toBe('2026-10-19T06:00:00.000Z');
    });
  });
});
