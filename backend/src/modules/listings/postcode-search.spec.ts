import { beforeAll, afterAll, describe, expect, it } from '@jest/globals';
import { Browser, signedInPerson } from '../../testing/accounts.js';
import { insertListing, listingBody, postListing } from '../../testing/listings.js';
import { FakePostcodes } from '../../testing/postcodes.js';
import { useTestApp } from '../../testing/test-context.js';
import { LISTING_SORTS } from '../../contracts/listings.js';
import { POSTCODE_LOOKUPS_PER_CLIENT, POSTCODE_SERVICE_DOWN } from '../../infra/geocoding/postcodes-io-geocoder.js';
import { DISTANCE_NOTES } from './listings.service.js';

interface Card {
  id: string;
  title: string;
  location: string;
  distance_miles: number | null;
}

describe('postcodes: search by postcode or outcode, and what visitors see of a seller’s postcode', () => {
  const postcodes = new FakePostcodes();
  beforeAll(() => postcodes.start());
  afterAll(() => postcodes.stop());
  const { db, t } = useTestApp({
    OUTBOX_POLL_SECONDS: '300',
    API_RATE_LIMIT: '100000',
    SEARCH_CACHE_MS: '0',
    // Read when the app starts, after the stand-in above has its port.
    get POSTCODES_API_URL() {
      return postcodes.url;
    },
  });
  const visitor = () => new Browser(t);
  const browse = async (query: string) => {
    const response = await visitor().call('GET', `/api/listings?${query}`);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
    return response.json<{ data: { listings: Card[] } }>().data.listings;
  };

  it('finds listings within a radius of a postcode or an outcode, with the distance on every card in every sort', async () => {
    const seller = (await signedInPerson(t)).id;
    const taunton = await insertListing(db, { seller, title: 'Suffolk ewes near Taunton', place: 'taunton' });
    const exeter = await insertListing(db, { seller, title: 'Suffolk ewes near Exeter', place: 'exeter' });
    await insertListing(db, { seller, title: 'Suffolk ewes near York', place: 'york' });
    const near = await browse('q=suffolk&location=ta1+1aa&radius=10');
    expect(near.map((card) => card.id)).toEqual([taunton]);
    expect(near[0]?.distance_miles).toBeLessThan(1);
    // (Price per head asks for livestock: farm-listings.spec sorts by it.)
    for (const sort of LISTING_SORTS.filter((sort) => sort !== 'price-per-head')) {
      const cards = await browse(`q=suffolk&location=TA1&radius=40&sort=${sort}`);
      expect({ sort, ids: cards.map((card) => card.id).sort() }).toEqual({ sort, ids: [taunton, exeter].sort() });
      expect({ sort, distances: cards.map((card) => typeof card.distance_miles) }).toEqual({ sort, distances: ['number', 'number'] });
    }
  });

  it('suggests the place of a typed postcode in the location picker', async () => {
    const response = await visitor().call('GET', '/api/places?q=ne461aa');
    expect(response.json()).toMatchObject({ data: [{ id: 'NE46 1AA', name: 'Hexham', label: 'NE46 1AA, Hexham, England' }] });
  });

  it('shows visitors the outcode and the place of a listing posted at a postcode, never the postcode, and stores its place rounded', async () => {
    const { browser, id: sellerId } = await signedInPerson(t);
    const posted = await postListing<{ id: string }>(browser, { location: 'EX20 1AB', place_id: 'EX20 1AB' });
    const answers = [
      await visitor().call('GET', `/api/listings/${posted.id}`),
      await visitor().call('GET', `/api/listings?location=EX20&radius=5`),
      await visitor().call('GET', `/api/listings?q=massey`),
      await visitor().call('GET', `/api/users/${sellerId}/listings`),
      await visitor().call('GET', `/api/listings/featured`),
    ];
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    for (const answer of answers) expect(answer.body).not.toMatch(/EX20 ?1AB/i);
    expect(answers[0]?.json()).toMatchObject({ data: { location: 'Okehampton (EX20), England', place_id: 'EX20' } });
    expect(answers[1]?.json()).toMatchObject({ data: { listings: [{ id: posted.id, location: 'Okehampton (EX20), England' }] } });
    const [row] = await db.query<{ place_id: string; latitude: number; longitude: number }>(
      'select place_id, latitude, longitude from listing where id = $1',
      [posted.id],
    );
    expect(row).toEqual({ place_id: 'EX20', latitude: 50.74, longitude: -4 });
  });

  it('refuses a postcode that does not exist by name, and says plainly when postcodes cannot be looked up', async () => {
    const unknown = await visitor().call('GET', '/api/listings?location=ZZ9+9ZZ');
    expect([unknown.statusCode, unknown.json()]).toEqual([
      400,
      expect.objectContaining({ fields: { location: 'location: no such postcode or outcode, ZZ9 9ZZ' } }),
    ]);
    const { browser } = await signedInPerson(t);
    const refused = await browser.call('POST', '/api/listings', await listingBody(browser, { location: 'ZZ9 9ZZ', place_id: 'ZZ9 9ZZ' }));
    expect(refused.json()).toMatchObject({
      fields: { location: 'We could not find the postcode ZZ9 9ZZ: check it, or choose a town or village from the list.' },
    });
    postcodes.failing = true;
    try {
      const down = await visitor().call('GET', '/api/listings?location=BA1+1AA');
      expect([down.statusCode, down.json()]).toEqual([503, expect.objectContaining({ error: POSTCODE_SERVICE_DOWN })]);
      // Place names never wait on the postcode service.
      expect((await visitor().call('GET', '/api/listings?location=2636177')).statusCode).toBe(200);
    } finally {
      postcodes.failing = false;
    }
  });

  it('limits each connection’s postcode lookups sent to the service, with a plain 429; cached codes and place names stay free', async () => {
    const heavy = visitor();
    const { limit } = POSTCODE_LOOKUPS_PER_CLIENT;
    const before = postcodes.requests.length;
    // Codes nobody has typed: each one is asked of the service (and found to be no postcode).
    for (let i = 0; i < limit; i++) expect((await heavy.call('GET', `/api/places?q=ZZ${10 + i}+9ZZ`)).statusCode).toBe(200);
    const refused = await heavy.call('GET', '/api/places?q=ZZ99+9ZZ');
    expect([refused.statusCode, refused.json<{ error: string }>().error]).toEqual([
      429,
      expect.stringMatching(
        /^Too many postcode lookups from your connection\. Please wait \d+ minutes and try again, or type a town or village name instead\.$/,
      ),
    ]);
    expect((await heavy.call('GET', '/api/listings?location=ZZ98+9ZZ')).statusCode).toBe(429);
    expect(postcodes.requests.length - before).toBe(limit);
    // What is already known costs nothing: a code looked up before, and place names.
    expect((await heavy.call('GET', '/api/places?q=ZZ10+9ZZ')).statusCode).toBe(200);
    expect((await heavy.call('GET', '/api/places?q=Taunt')).json()).toMatchObject({ data: [{ name: 'Taunton' }] });
    // Another connection is not held back.
    expect((await visitor().call('GET', '/api/places?q=ZZ97+9ZZ')).statusCode).toBe(200);
  });

  it('shows a listing at once when the distance from ?near= cannot be had, saying why; a cached place needs no service', async () => {
    const seller = (await signedInPerson(t)).id;
    const id = await insertListing(db, { seller, title: 'Hay bales near Taunton', place: 'taunton' });
    const detail = async (near: string, from = visitor()) => {
      const response = await from.call('GET', `/api/listings/${id}?near=${encodeURIComponent(near)}`);
      expect(response.statusCode).toBe(200);
      return response.json<{ data: { distance_miles: number | null; distance_note: string | null } }>().data;
    };
    expect(await detail('TA1 1AA')).toMatchObject({ distance_note: null, distance_miles: expect.any(Number) });
    expect(await detail('ZZ9 9ZZ')).toEqual(expect.objectContaining({ distance_miles: null, distance_note: DISTANCE_NOTES.unknownPlace }));
    // Not a place id at all: no distance asked for, no note.
    expect(await detail('not a place')).toMatchObject({ distance_miles: null, distance_note: null });
    postcodes.delayMs = 5_000;
    try {
      const started = Date.now();
      expect(await detail('BA1 1AA')).toMatchObject({ distance_miles: null, distance_note: DISTANCE_NOTES.serviceDown });
      // Bounded well below the service's own 3-second timeout.
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await detail('TA1 1AA')).toMatchObject({ distance_note: null, distance_miles: expect.any(Number) });
    } finally {
      postcodes.delayMs = 0;
    }
    postcodes.failing = true;
    try {
      expect(await detail('BA2 2AA')).toMatchObject({ distance_miles: null, distance_note: DISTANCE_NOTES.serviceDown });
    } finally {
      postcodes.failing = false;
    }
  });
});
