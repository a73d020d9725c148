import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Browser, signedInPerson } from '../../../testing/accounts.js';
import { insertListing, PLACES } from '../../../testing/listings.js';
import { startTestApp, type TestApp } from '../../../testing/test-app.js';
import { createTestDatabase, type TestDatabase } from '../../../testing/test-database.js';
import { ListingCards } from '../listing-cards.js';

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
});
