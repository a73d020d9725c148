import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Browser, signedInPerson } from '../../../testing/accounts.js';
import { insertListing, PLACES } from '../../../testing/listings.js';
import { startTestApp, type TestApp } from '../../../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../../testing/test-database.js';
import { ListingCards } from '../listing-cards.js';
import { ListingSearchSql } from './search-sql.js';

interface Page {
  listings: Array<{ title: string }>;
  total: number | null;
  searched_for: string | null;
}

describe('one search request', () => {
  let db: TestDatabase;
  let t: TestApp;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Answers never reused: every request below is searched.
    t = await startTestApp(db, { OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000', SEARCH_CACHE_MS: '0' });
    const seller = (await signedInPerson(t)).id;
    await insertListing(db, { seller, title: 'Massey Ferguson tractor' });
    await insertListing(db, { seller, title: 'John Deere tractor with loader', place: 'bridgwater' });
    await insertListing(db, { seller, title: 'Livestock trailer', place: 'york' });
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  const browse = async (query: string): Promise<Page> => {
    const response = await new Browser(t).call('GET', `/api/listings${query}`);
    if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
    return response.json<{ data: Page }>().data;
  };

  // Planning, the page, its count, the relevance window and a spelling correction all read one SQL:
  // what it costs to work out (grid squares, filters) is paid once a request.
  it.each([
    ['a misspelt word, corrected', '?q=tracter', 2, 'tractor'],
    ['several words', '?q=tractor%20loader', 1, null],
    ['words with a filter', '?q=tractor&category=equipment&sort=newest', 2, null],
    ['a radius, counted beside its page', `?location=${PLACES.taunton.id}&radius=25`, 2, null],
    ['a radius, nearest first', `?location=${PLACES.taunton.id}&radius=25&sort=nearest`, 2, null],
  ])('builds its SQL once: %s', async (_, query, found, searchedFor) => {
    const built = jest.spyOn(t.app.get(ListingCards), 'sql');
    try {
      const page = await browse(query);
      expect(page.listings).toHaveLength(found);
      expect(page.total).toBe(found);
      expect(page.searched_for).toBe(searchedFor);
      expect(built).toHaveBeenCalledTimes(1);
    } finally {
      built.mockRestore();
    }
  });

  // A listing page's related listings show no count: counting the category within 50 miles cost
  // more than finding the four nearest (36 ms against a few at a million listings).
  it.each([
    ['nearest first in a category', `?category=equipment&location=${PLACES.taunton.id}&radius=50&sort=nearest&limit=4`],
    ['nearest first', `?location=${PLACES.taunton.id}&radius=50&sort=nearest&limit=4`],
    ['newest first with words', '?q=tractor&sort=newest'],
  ])('with count=false, %s: the same listings, no total, and no count asked of the database', async (_, query) => {
    const counted = await browse(query);
    const counts = [jest.spyOn(ListingSearchSql.prototype, 'count'), jest.spyOn(ListingSearchSql.prototype, 'countedGather')];
    try {
      const page = await browse(`${query}&count=false`);
      expect(page.listings.map((listing) => listing.title)).toEqual(counted.listings.map((listing) => listing.title));
      expect(page.listings.length).toBeGreaterThan(0);
      expect(page.total).toBeNull();
      if (query.includes('nearest')) for (const count of counts) expect(count).not.toHaveBeenCalled();
    } finally {
      for (const count of counts) count.mockRestore();
    }
  });

  it('refuses a count that is not true or false', async () => {
    const response = await new Browser(t).call('GET', '/api/listings?count=some');
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('count must be true or false');
  });
});
