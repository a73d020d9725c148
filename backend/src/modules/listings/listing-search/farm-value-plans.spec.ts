import { beforeAll, describe, expect, it } from '@jest/globals';
import { Browser, signedInPerson } from '../../../testing/accounts.js';
import { insertListingsOverPlaces, PLACES } from '../../../testing/listings.js';
import { useTestApp } from '../../../testing/test-context.js';
import { EARTH_RADIUS_METRES, METRES_PER_MILE } from '../geo-grid.js';

interface Page {
  listings: Array<{ id: string }>;
  next_cursor: string | null;
  total: number | null;
}

const PLACE_LIST = Object.values(PLACES);
const TB_STATUSES = ['otf', 'otf-withdrawn', 'otf-suspended', 'not-applicable'];
const PAGE = 30;

/**
 * A radius narrowed by a category and one farm value with its own index of grid squares ("TB free
 * within 25 miles") is counted and walked square by square in that index, under prepared statements'
 * generic plans, the count beside the page. Each search's pages and total are compared with what one
 * plain query finds, and with the same search given a second farm value that changes nothing (every
 * listing here is a cattle lot), which is planned for its values as before.
 */
describe('a radius with one farm value, square by square in its own index', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '1000000', SEARCH_CACHE_MS: '0' });

  beforeAll(async () => {
    const seller = (await signedInPerson(t)).id;
    // 4,000 cattle lots over five places, a little apart at each, with every TB status (officially TB
    // free the most, more than a total counts within 250 miles); and 1,000 listings of other
    // categories holding the same value, which no livestock search may find.
    await insertListingsOverPlaces(db, seller, {
      count: 5000,
      category: 'case when i % 5 = 4 then 2 else 3 end',
      title: `'Heifers lot ' || i`,
      attributes: `jsonb_build_object('species', 'cattle', 'tb_status', ($2::text[])[greatest(1, (i / 5) % 8 - 3)], 'pedigree', i % 3 = 0)`,
      spread: 40,
      featured: 'false',
      publishedAt: `now() - interval '30 minutes' - ((i * 7) % 3000) * interval '1 minute' - (i % 3) * interval '1 microsecond'`,
      value: TB_STATUSES,
    });
  });

  /** Every match of the search, in its order, as one plain query. */
  async function plainly(params: URLSearchParams): Promise<string[]> {
    const place = PLACE_LIST.find((p) => p.id === params.get('location')) as (typeof PLACE_LIST)[number];
    const distance = `(${2 * EARTH_RADIUS_METRES} * asin(sqrt(power(sin(radians(l.latitude - $1) / 2), 2)
        + cos(radians($1)) * cos(radians(l.latitude)) * power(sin(radians(l.longitude - $2) / 2), 2))))`;
    const order = params.get('sort') === 'oldest' ? 'l.published_at asc, l.id asc' : 'l.published_at desc, l.id desc';
    const rows = await db.query<{ id: string }>(
      `select l.id from listing l where l.status = 'live' and l.category_id = 3 and l.attributes ->> 'tb_status' = $3
         and ${distance} <= $4 order by ${order}`,
      [place.latitude, place.longitude, params.get('tb_status'), Number(params.get('radius')) * METRES_PER_MILE],
    );
    return rows.map((row) => row.id);
  }

  /** The first pages of a search (up to `pages`), and its total. */
  async function pagesOf(browser: Browser, params: URLSearchParams, pages: number): Promise<{ ids: string[]; total: number | null }> {
    const ids: string[] = [];
    let total: number | null = null;
    let cursor: string | null = null;
    for (let page = 0; page < pages && (page === 0 || cursor); page++) {
      const response = await browser.call('GET', `/api/listings?${params}&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
      expect({ search: params.toString(), status: response.statusCode }).toEqual({ search: params.toString(), status: 200 });
      const answer: Page = response.json<{ data: Page }>().data;
      if (page === 0) total = answer.total;
      ids.push(...answer.listings.map((listing) => listing.id));
      cursor = answer.next_cursor;
    }
    return { ids, total };
  }

  it('finds the listings one plain query finds, in the same order, with the same total, for every radius and status', async () => {
    const browser = new Browser(t);
    for (const [n, status] of TB_STATUSES.entries()) {
      for (const radius of [5, 25, 100, 250]) {
        for (const sort of ['newest', 'oldest']) {
          const place = PLACE_LIST[(n + radius) % PLACE_LIST.length] as (typeof PLACE_LIST)[number];
          const params = new URLSearchParams({
            category: 'livestock',
            tb_status: status,
            location: place.id,
            radius: String(radius),
            sort,
          });
          const expected = await plainly(params);
          const found = await pagesOf(browser, params, 3);
          expect({ search: params.toString(), ids: found.ids, total: found.total }).toEqual({
            search: params.toString(),
            ids: expected.slice(0, PAGE * 3),
            total: Math.min(expected.length, 1000),
          });
          // The general plan (two farm values: counted, then gathered or walked, each planned for its values) agrees.
          const general = new URLSearchParams(params);
          general.set('species', 'cattle');
          expect({ search: general.toString(), ...(await pagesOf(browser, general, 3)) }).toEqual({
            search: general.toString(),
            ...found,
          });
        }
      }
    }
  });
});
