import { beforeAll, describe, expect, it } from '@jest/globals';
import { Browser, signedInPerson } from '../../../testing/accounts.js';
import { insertListingsOverPlaces, PLACES } from '../../../testing/listings.js';
import { useTestApp } from '../../../testing/test-context.js';
import { EARTH_RADIUS_METRES, METRES_PER_MILE } from '../geo-grid.js';

interface Page {
  listings: Array<{ id: string }>;
  next_cursor: string | null;
  total: number | null;
  total_is_lower_bound: boolean;
}

/** Listings in the table: more than a search gathers (GATHER_LIMIT), so that every plan is taken. */
const LISTINGS = 6_000;
const WORDS = ['tractor', 'baler', 'heifers', 'hay', 'seed', 'hire'];
const PLACE_LIST = Object.values(PLACES);
const SORTS = ['newest', 'oldest', 'price-low', 'price-high', 'popular', 'nearest', 'relevance'] as const;
const PAGE = 40;
/** Pages compared per search: every plan's Load More, without reading thousands of cards. */
const PAGES = 3;

/** A seeded generator, so that a failure names a search that fails again. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Filters and sorts the browse form can combine, each search's pages compared with what one plain
 * query finds: whatever plan the search takes (gathered, walked, counted square by square, nearest
 * through the place index), it must find exactly those listings in that order.
 */
describe('every plan finds what a plain query finds', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '1000000', SEARCH_CACHE_MS: '0' });

  beforeAll(async () => {
    const seller = (await signedInPerson(t)).id;
    // Listings spread over five places (a little apart at each), categories, prices, ages and states.
    await insertListingsOverPlaces(db, seller, {
      count: LISTINGS,
      category: '1 + i % 5',
      title: `($2::text[])[1 + i % 6] || ' lot ' || i || case when i % 7 = 0 then ' ' || ($2::text[])[1 + i % 5] else '' end`,
      attributes: `case when i % 5 = 1 then jsonb_build_object('hours', (i * 13) % 12000, 'year', 1990 + i % 36) else '{}'::jsonb end`,
      spread: 9,
      featured: 'i % 50 = 0',
      publishedAt: `now() - interval '30 minutes' - ((i * 7) % 2000) * interval '1 hour'`,
      value: WORDS,
    });
  });

  /** A search as the browse form could make it, from the seeded generator. */
  function search(rand: () => number): URLSearchParams {
    const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
    const params = new URLSearchParams();
    if (rand() < 0.4) params.set('q', pick(WORDS));
    if (rand() < 0.5) {
      const category = pick(['land', 'equipment', 'livestock', 'seeds-plants', 'services']);
      params.set('category', category);
      if (category === 'equipment' && rand() < 0.5) params.set('hours_max', String(Math.floor(rand() * 12000)));
    }
    const min = Math.floor(rand() * 10000);
    if (rand() < 0.4) params.set('min_price', String(min));
    if (rand() < 0.4) params.set('max_price', String(Math.floor(min + rand() * 10000)));
    const place = rand() < 0.5 ? pick(PLACE_LIST) : undefined;
    if (place) {
      params.set('location', place.id);
      params.set('radius', String(pick([5, 10, 25, 50, 100, 250])));
    }
    if (rand() < 0.2) params.set('date', pick(['today', 'week', 'month']));
    if (rand() < 0.1) params.set('featured', 'true');
    const sorts = SORTS.filter((sort) => (sort !== 'nearest' || place) && (sort !== 'relevance' || params.has('q')));
    params.set('sort', pick(sorts));
    return params;
  }

  /** The same search as one plain query: every match, in the sort's order, the id breaking ties. */
  async function plainly(params: URLSearchParams): Promise<string[]> {
    const where = [`l.status = 'live'`];
    const values: unknown[] = [];
    const bind = (value: unknown) => `$${values.push(value)}`;
    const categories: Record<string, number> = { land: 1, equipment: 2, livestock: 3, 'seeds-plants': 4, services: 5 };
    const q = params.get('q');
    if (q) where.push(`l.search_vector @@ websearch_to_tsquery('english', ${bind(q)})`);
    if (params.has('category')) where.push(`l.category_id = ${bind(categories[params.get('category') as string])}`);
    if (params.has('hours_max')) where.push(`(l.attributes->>'hours')::numeric <= ${bind(Number(params.get('hours_max')))}`);
    if (params.has('min_price')) where.push(`l.price_pence >= ${bind(Number(params.get('min_price')) * 100)}`);
    if (params.has('max_price')) where.push(`l.price_pence <= ${bind(Number(params.get('max_price')) * 100)}`);
    if (params.has('date'))
      where.push(`l.published_at >= now() - ${bind({ today: 1, week: 7, month: 30 }[params.get('date') as 'today'])} * interval '1 day'`);
    if (params.has('featured')) where.push('l.featured');
    let distance = 'null';
    const place = PLACE_LIST.find((p) => p.id === params.get('location'));
    if (place) {
      const [lat, lon] = [bind(place.latitude), bind(place.longitude)];
      distance = `(${2 * EARTH_RADIUS_METRES} * asin(sqrt(power(sin(radians(l.latitude - ${lat}) / 2), 2)
        + cos(radians(${lat})) * cos(radians(l.latitude)) * power(sin(radians(l.longitude - ${lon}) / 2), 2))))`;
      where.push(`${distance} <= ${bind(Number(params.get('radius')) * METRES_PER_MILE)}`);
    }
    const order = {
      newest: 'l.published_at desc, l.id desc',
      oldest: 'l.published_at asc, l.id asc',
      'price-low': 'l.price_pence asc, l.id asc',
      'price-high': 'l.price_pence desc, l.id desc',
      popular: 'l.views desc, l.id desc',
      nearest: `${distance} asc, l.id asc`,
      relevance: 'l.id',
    }[params.get('sort') as (typeof SORTS)[number]];
    const rows = await db.query<{ id: string }>(`select l.id from listing l where ${where.join(' and ')} order by ${order}`, values);
    return rows.map((row) => row.id);
  }

  it('for 100 searches of every shape: the same listings, in the same order, and the same total', async () => {
    const rand = random(19);
    const browser = new Browser(t);
    // Filters that leave more than a search gathers, so that their walks are taken too.
    const many = [
      `location=${PLACES.taunton.id}&radius=250&min_price=60&sort=nearest`,
      `location=${PLACES.york.id}&radius=250&max_price=15000&date=month&sort=nearest`,
      `q=lot&location=${PLACES.exeter.id}&radius=100&sort=nearest`,
      `location=${PLACES.taunton.id}&radius=250&min_price=60&sort=price-high`,
      'min_price=100&sort=oldest',
      // Words with other filters that leave more than are gathered: through the rarest word's postings.
      'q=lot&min_price=60&sort=newest',
      'q=lot&min_price=60&sort=relevance',
      'q=lot+hay&min_price=60&sort=relevance',
      'q=lot+hay&min_price=60&sort=oldest',
      // Words by price: the rarest word's postings in their index of price, over the range asked.
      'q=lot&min_price=60&sort=price-low',
      'q=lot&min_price=60&max_price=9000&sort=price-high',
      'q=lot+hay&max_price=9000&sort=price-low',
      `q=lot&location=${PLACES.taunton.id}&radius=250&sort=price-high`,
      // Words with a date (and a price): their postings hold both, and count the matches.
      'q=lot&date=month&sort=newest',
      'q=lot&date=month&min_price=60&sort=price-low',
      'q=lot+hay&date=week&sort=oldest',
      'q=lot+hay&date=month&max_price=9000&sort=relevance',
      'q=hay&date=week&sort=relevance',
      // Words within a radius (with a category, a price, a date): counted and gathered from the postings' grid squares.
      `q=lot&location=${PLACES.york.id}&radius=25&sort=newest`,
      `q=hay&category=equipment&location=${PLACES.exeter.id}&radius=50&sort=price-low`,
      `q=lot+hay&location=${PLACES.taunton.id}&radius=100&date=month&sort=nearest`,
      `q=hay&location=${PLACES.york.id}&radius=250&min_price=60&sort=relevance`,
      `q=lot&category=land&location=${PLACES.exeter.id}&radius=10&max_price=9000&sort=oldest`,
      // More matches than are gathered within a radius of few squares, filtered by what the grid index holds: all gathered from it.
      `location=${PLACES.york.id}&radius=25&min_price=1&sort=popular`,
      `location=${PLACES.york.id}&radius=25&min_price=1&date=month&sort=price-high`,
      `location=${PLACES.exeter.id}&radius=10&max_price=1000000&sort=oldest`,
    ].map((search) => new URLSearchParams(search));
    for (let n = 0; n < 100 + many.length; n++) {
      const params = many[n] ?? search(rand);
      const expected = await plainly(params);
      const found: string[] = [];
      let first: Page | undefined;
      let cursor: string | null = null;
      for (let page = 0; page < PAGES && (page === 0 || cursor); page++) {
        const response = await browser.call('GET', `/api/listings?${params}&limit=${PAGE}${cursor ? `&cursor=${cursor}` : ''}`);
        expect({ search: params.toString(), status: response.statusCode }).toEqual({ search: params.toString(), status: 200 });
        const answer: Page = response.json<{ data: Page }>().data;
        first ??= answer;
        found.push(...answer.listings.map((listing) => listing.id));
        cursor = answer.next_cursor;
      }
      const compared = params.get('sort') === 'relevance' ? [...found].sort() : found;
      const wanted =
        params.get('sort') === 'relevance' ? expected.filter((id) => found.includes(id)).sort() : expected.slice(0, found.length);
      // Labelled with the search, so that a failure says which one.
      expect({ search: params.toString(), ids: compared }).toEqual({ search: params.toString(), ids: wanted });
      expect({ search: params.toString(), count: found.length }).toEqual({
        search: params.toString(),
        count: Math.min(expected.length, PAGE * PAGES),
      });
      expect({ search: params.toString(), total: first?.total }).toEqual({
        search: params.toString(),
        total: Math.min(expected.length, 1000),
      });
    }
  });
});
