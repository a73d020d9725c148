import { beforeEach, describe, expect, it } from '@jest/globals';
import type { DomainEvent } from '../../events/domain-events.js';
import { LISTING_TEXTS } from '../../contracts/listings.js';
import { signedInPerson } from '../../testing/accounts.js';
import { LISTING_BODIES, listingBody, PLACES, postListing } from '../../testing/listings.js';
import { eventually, readOutbox, waitForJobs } from '../../testing/test-app.js';
import { useTestApp } from '../../testing/test-context.js';
import { WantedMatches } from './wanted-matches.js';

interface Posted {
  id: string;
  wanted_by: number;
}

/** "Wanted: 20 Texel ewe lambs near Taunton": 6 to 9 months old, up to £120 a head, within 25 miles of Taunton. */
const WANTED_LAMBS = {
  ...LISTING_BODIES.livestock,
  type: 'wanted',
  title: 'Wanted: 20 Texel ewe lambs near Taunton',
  description: 'Looking for twenty Texel ewe lambs to join our flock this autumn; can collect within 25 miles of Taunton.',
  price: 120,
  price_unit: 'per-head',
  attributes: { breed: 'Texel', sex: 'female' },
  wanted_ranges: { age_months_min: 6, age_months_max: 9 },
  wanted_radius: 25,
  images: [],
};

/** Lambs for sale as the seller describes them, at a place of PLACES. */
const lambsForSale = (change: { age?: number; price?: number; place?: keyof typeof PLACES; title?: string } = {}) => ({
  ...LISTING_BODIES.livestock,
  title: change.title ?? 'Twenty Texel ewe lambs',
  price: change.price ?? 110,
  attributes: { breed: 'Texel', sex: 'female', age_months: change.age ?? 8, head_count: 20 },
  location: PLACES[change.place ?? 'bridgwater'].label,
  place_id: PLACES[change.place ?? 'bridgwater'].id,
});

describe('wanted ads', () => {
  const { db, t } = useTestApp({ API_RATE_LIMIT: '100000', IMAGE_UPLOADS_PER_HOUR: '1000', SEARCH_CACHE_MS: '0' });

  // Each test's wanted ads alone are live: every test here posts in the same category and place.
  beforeEach(() => db.query(`update listing set status = 'withdrawn' where type = 'wanted'`));

  const postWanted = async (buyer: Awaited<ReturnType<typeof signedInPerson>>, change: Record<string, unknown> = {}) =>
    postListing<Posted>(buyer.browser, { ...WANTED_LAMBS, ...change });

  it('posts a wanted ad without photos, shows it under Wanted with its ranges, and refuses ranges browse would refuse', async () => {
    const buyer = await signedInPerson(t);
    const wanted = await postWanted(buyer);
    const browse = await buyer.browser.call('GET', '/api/listings?type=wanted&category=livestock');
    expect(browse.json()).toMatchObject({ data: { listings: [{ id: wanted.id, type: 'wanted', price: 120 }] } });
    const detail = await buyer.browser.call('GET', `/api/listings/${wanted.id}`);
    expect(detail.json()).toMatchObject({ data: { wanted_ranges: { age_months_min: 6, age_months_max: 9 }, wanted_radius: 25 } });

    const refusal = async (change: Record<string, unknown>) => {
      const response = await buyer.browser.call('POST', '/api/listings', await listingBody(buyer.browser, { ...WANTED_LAMBS, ...change }));
      return [response.statusCode, response.json<{ fields: Record<string, string> }>().fields];
    };
    expect(await refusal({ wanted_ranges: { age_months_min: 12, age_months_max: 400 } })).toEqual([
      400,
      { 'wanted_ranges.age_months_max': 'age_months_max must be from 0 to 360' },
    ]);
    expect(await refusal({ wanted_ranges: { age_months_min: 9, age_months_max: 6 } })).toEqual([
      400,
      { 'wanted_ranges.age_months_max': 'age_months_max must not be below age_months_min' },
    ]);
    expect(await refusal({ wanted_radius: 900 })).toEqual([400, { wanted_radius: 'wanted_radius must be at most 500 miles' }]);
    // Only ranges: a choice or words stored as the ad's search would ask what the ad does not say (and a
    // several-choice filter could not be tested against new listings at all).
    expect(await refusal({ wanted_ranges: { health_schemes: 'bvd', q: 'texel' } })).toEqual([
      400,
      {
        'wanted_ranges.health_schemes': LISTING_TEXTS.wantedRangeOnly('health_schemes'),
        'wanted_ranges.q': LISTING_TEXTS.wantedRangeOnly('q'),
      },
    ]);
    const forSale = await buyer.browser.call('POST', '/api/listings', await listingBody(buyer.browser, { images: [] }));
    expect(forSale.json()).toMatchObject({ fields: { images: 'At least one image is required' } });
  });

  it('counts on the seller’s success screen the wanted ads a new listing answers, by browse’s rules (ranges, price, radius)', async () => {
    const [buyer, other, seller] = await Promise.all([signedInPerson(t), signedInPerson(t), signedInPerson(t)]);
    await postWanted(buyer);
    await postWanted(other, { wanted_ranges: { age_months_min: 7 } });
    const post = (change: Parameters<typeof lambsForSale>[0]) => postListing<Posted>(seller.browser, lambsForSale(change));
    const answered = await post({ age: 8 });
    expect(answered.wanted_by).toBe(2);
    expect((await post({ age: 6 })).wanted_by).toBe(1); // Younger than the second buyer's 7 months.
    expect((await post({ age: 10 })).wanted_by).toBe(1); // Older than 9 months; the second buyer gave no upper age.
    expect((await post({ age: 8, price: 121 })).wanted_by).toBe(0); // Dearer than both.
    expect((await post({ age: 8, place: 'exeter' })).wanted_by).toBe(0); // About 30 miles from Taunton.
    // A buyer's own listing never answers their own wanted ad.
    expect((await postListing<Posted>(buyer.browser, lambsForSale({ age: 8 }))).wanted_by).toBe(1);
  });

  it('compares a wanted ad’s price in its own unit: a lot priced per head counts by its head count against a total', async () => {
    const [buyer, seller] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
    // "Up to £2,400 for the twenty": a total, not a price per head.
    await postWanted(buyer, { price: 2_400, price_unit: 'total', title: 'Wanted: 20 Texel ewe lambs, £2,400 the lot' });
    const post = (price: number) => postListing<Posted>(seller.browser, lambsForSale({ price }));
    // Twenty at £110 a head is £2,200; at £130 a head, £2,600 (its £130 alone is below £2,400, which matched before).
    expect((await post(110)).wanted_by).toBe(1);
    expect((await post(130)).wanted_by).toBe(0);
  });

  it('offers a lot priced as a whole to a wanted ad priced per head, by its head count', async () => {
    const [buyer, seller] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
    await postWanted(buyer); // Up to £120 a head.
    const post = (price: number) => postListing<Posted>(seller.browser, { ...lambsForSale({ price }), price_unit: 'total' });
    expect((await post(2_000)).wanted_by).toBe(1); // £100 a head for the twenty.
    expect((await post(2_600)).wanted_by).toBe(0); // £130 a head.
  });

  it('tells each wanted ad’s owner once per listing, by the bell and by e-mail, however often the job runs', async () => {
    const [buyer, seller] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
    const wanted = await postWanted(buyer, { title: 'Wanted: Texel ewe lambs for a new flock' });
    const listing = await postListing<Posted>(seller.browser, lambsForSale({ title: 'Texel ewe lambs, eight months' }));
    await waitForJobs(db);
    const event: DomainEvent<'listing.published'> = {
      id: 'replayed',
      name: 'listing.published',
      occurredAt: new Date().toISOString(),
      payload: { listingId: listing.id },
    };
    await t.app.get(WantedMatches).matchNewListing(event);
    await waitForJobs(db);
    expect(await db.query('select wanted_id from wanted_match where listing_id = $1', [listing.id])).toEqual([{ wanted_id: wanted.id }]);
    const bell = (await buyer.browser.call('GET', '/api/notifications')).json<{ data: { notifications: Array<{ message: string }> } }>();
    expect(bell.data.notifications.map((n) => n.message)).toEqual([
      '"Texel ewe lambs, eight months" (£110) matches your wanted ad "Wanted: Texel ewe lambs for a new flock".',
    ]);
    const mails = await eventually(async () => {
      const found = (await readOutbox(t.config.mail.outboxDir)).filter((mail) =>
        mail.subject.includes('Wanted: Texel ewe lambs for a new flock'),
      );
      expect(found).toHaveLength(1);
      return found;
    });
    expect(mails[0]?.text).toContain(`/listing/${listing.id}`);
  });

  it('sends no e-mail to an owner who turned e-mail notifications off, but still rings the bell', async () => {
    const [buyer, seller] = await Promise.all([signedInPerson(t), signedInPerson(t)]);
    await db.query('update app_user set email_notifications = false where id = $1', [buyer.id]);
    await postWanted(buyer, { title: 'Wanted: quiet Texel lambs' });
    await postListing<Posted>(seller.browser, lambsForSale({ title: 'Quiet Texel ewe lambs' }));
    await waitForJobs(db);
    const bell = (await buyer.browser.call('GET', '/api/notifications')).json<{ data: { notifications: unknown[] } }>();
    expect(bell.data.notifications).toHaveLength(1);
    expect((await readOutbox(t.config.mail.outboxDir)).filter((mail) => mail.subject.includes('Wanted: quiet Texel lambs'))).toEqual([]);
  });
});
