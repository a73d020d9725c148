import { beforeAll, describe, expect, it } from '@jest/globals';
import { Browser, signedInPerson } from '../../testing/accounts.js';
import { insertListing, PLACES } from '../../testing/listings.js';
import { boundsAround, cellsWhollyWithin, cellsWithin, GEO_CELL, type Bounds } from './geo-grid.js';
import { type TestApp } from '../../testing/test-app.js';
import { useTestApp, useTestDatabase } from '../../testing/test-context.js';

interface Card {
  id: string;
  title: string;
  price: number;
  distance_miles: number | null;
  seller_verified: boolean;
}
interface Page {
  listings: Card[];
  next_cursor: string | null;
  total: number | null;
  total_is_lower_bound: boolean;
  searched_for: string | null;
}

const DAY = 24 * 3600 * 1000;

/** One page of GET /api/listings as a visitor; anything but a 200 fails the test with the answer. */
async function browseAs(t: TestApp, query: string): Promise<Page> {
  const response = await new Browser(t).call('GET', `/api/listings${query}`);
  if (response.statusCode !== 200) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json<{ data: Page }>().data;
}

describe('browse and search', () => {
  let seller: string;
  let unverified: string;

  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000' });
  beforeAll(async () => {
    seller = (await signedInPerson(t)).id;
    unverified = (await signedInPerson(t)).id;
    // "Verified sellers only" means "Business verified" by staff (issue 23 §2), not a confirmed e-mail, which both have.
    await db.query(
      `update app_user set seller_type = 'trade', business_name = 'Levels Farm Ltd', business_verified_at = now() where id = $1`,
      [seller],
    );
    const at = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY);
    await insertListing(db, {
      seller,
      title: 'Massey Ferguson tractor',
      pricePence: 3_850_000,
      views: 40,
      attributes: { hours: 2400, year: 2019 },
      publishedAt: at(1),
    });
    await insertListing(db, {
      seller,
      title: 'John Deere tractor with loader',
      pricePence: 5_200_000,
      views: 10,
      attributes: { hours: 6100, year: 2012 },
      place: 'bridgwater',
      publishedAt: at(2),
    });
    await insertListing(db, { seller, title: 'Livestock trailer', pricePence: 450_000, views: 90, place: 'minehead', publishedAt: at(3) });
    await insertListing(db, {
      seller: unverified,
      title: 'Round baler',
      pricePence: 900_000,
      views: 5,
      place: 'exeter',
      publishedAt: at(10),
    });
    await insertListing(db, {
      seller,
      title: 'Grazing land near York',
      category: 1,
      pricePence: 25_000_000,
      attributes: { acres: 40 },
      place: 'york',
      publishedAt: at(40),
      featured: true,
    });
    await insertListing(db, {
      seller,
      title: 'Tractor for hire by the week',
      type: 'rent',
      category: 6,
      rentSubcategory: 'equipment',
      pricePence: 45_000,
      publishedAt: at(5),
    });
    await insertListing(db, { seller, title: 'Withdrawn tractor', status: 'withdrawn', publishedAt: at(1) });
    await insertListing(db, { seller, title: 'Expired tractor', status: 'expired', publishedAt: at(100) });
  });

  const browse = (query: string) => browseAs(t, query);
  const titles = async (query: string) => (await browse(query)).listings.map((l) => l.title);

  it('shows live listings, newest first, with a total on the first page', async () => {
    const page = await browse('');
    expect(page.listings.map((l) => l.title)).toEqual([
      'Massey Ferguson tractor',
      'John Deere tractor with loader',
      'Livestock trailer',
      'Tractor for hire by the week',
      'Round baler',
      'Grazing land near York',
    ]);
    expect(page).toMatchObject({ total: 6, total_is_lower_bound: false, next_cursor: null, searched_for: null });
  });

  it.each([
    ['oldest', 'Grazing land near York'],
    ['price-low', 'Tractor for hire by the week'],
    ['price-high', 'Grazing land near York'],
    ['popular', 'Livestock trailer'],
  ])('sorts by %s', async (sort, first) => {
    expect((await titles(`?sort=${sort}`))[0]).toBe(first);
  });

  it('filters by category, type, price, date, verified seller and featured, in any combination', async () => {
    expect(await titles('?category=land')).toEqual(['Grazing land near York']);
    expect(await titles('?type=rent')).toEqual(['Tractor for hire by the week']);
    expect(await titles('?type=buy&category=rentals')).toEqual([]);
    expect(await titles('?min_price=4000&max_price=40000&sort=price-low')).toEqual([
      'Livestock trailer',
      'Round baler',
      'Massey Ferguson tractor',
    ]);
    expect(await titles('?date=week&sort=oldest')).toEqual([
      'Tractor for hire by the week',
      'Livestock trailer',
      'John Deere tractor with loader',
      'Massey Ferguson tractor',
    ]);
    expect(await titles('?verified=true&max_price=10000&sort=price-low')).toEqual(['Tractor for hire by the week', 'Livestock trailer']);
    expect(await titles('?featured=true')).toEqual(['Grazing land near York']);
  });

  it('filters on a category’s own fields', async () => {
    expect(await titles('?category=equipment&hours_max=3000')).toEqual(['Massey Ferguson tractor']);
    expect(await titles('?category=equipment&year_min=2010&year_max=2015')).toEqual(['John Deere tractor with loader']);
    expect(await titles('?category=land&acres_min=10')).toEqual(['Grazing land near York']);
  });

  it('finds words in their other forms, best matches first', async () => {
    expect(await titles('?q=tractors')).toEqual(
      expect.arrayContaining(['Massey Ferguson tractor', 'John Deere tractor with loader', 'Tractor for hire by the week']),
    );
    expect((await browse('?q=tractors')).listings).toHaveLength(3);
    expect((await titles('?q=loader tractor'))[0]).toBe('John Deere tractor with loader');
  });

  it('finds what a misspelt search meant, and says what it searched for', async () => {
    const page = await browse('?q=tracter');
    expect(page.searched_for).toBe('tractor');
    expect(page.listings.map((l) => l.title)).toEqual(expect.arrayContaining(['Massey Ferguson tractor']));
    expect((await browse('?q=xqzv')).listings).toEqual([]);
  });

  it('finds listings within a radius of a place, with distances, nearest first when asked', async () => {
    const page = await browse(`?location=${PLACES.taunton.id}&radius=25&sort=nearest`);
    const found = page.listings.map((l) => l.title);
    // The first two are both in Taunton itself (a tie, broken by id).
    expect(found.slice(0, 2).sort()).toEqual(['Massey Ferguson tractor', 'Tractor for hire by the week']);
    expect(found.slice(2)).toEqual(['John Deere tractor with loader', 'Livestock trailer']);
    const miles = page.listings.map((l) => l.distance_miles as number);
    expect(miles[0]).toBe(0);
    expect(miles[2]).toBeGreaterThan(7);
    expect(miles[2]).toBeLessThan(12);
    expect(miles[3]).toBeLessThan(25);
    expect(await titles(`?location=${PLACES.taunton.id}&radius=50`)).toEqual(expect.arrayContaining(['Round baler']));
  });

  it('keeps to the radius at its edge, for radii of every width', async () => {
    const exeter = (await browse(`?location=${PLACES.taunton.id}&radius=50`)).listings.find((l) => l.title === 'Round baler');
    const miles = exeter?.distance_miles as number;
    expect(miles).toBeGreaterThan(25);
    expect(await titles(`?location=${PLACES.taunton.id}&radius=${Math.floor(miles)}`)).not.toContain('Round baler');
    expect(await titles(`?location=${PLACES.taunton.id}&radius=${Math.ceil(miles)}&sort=oldest`)).toContain('Round baler');
    // 100 miles covers too many grid squares to walk one by one; 250, more than the grid is used for.
    expect(await titles(`?location=${PLACES.taunton.id}&radius=100`)).not.toContain('Grazing land near York');
    expect(await titles(`?location=${PLACES.taunton.id}&radius=100`)).toContain('Round baler');
    expect(await titles(`?location=${PLACES.taunton.id}&radius=250`)).toEqual(
      expect.arrayContaining(['Grazing land near York', 'Round baler', 'Livestock trailer']),
    );
    expect(await titles(`?location=${PLACES.york.id}&radius=5&sort=nearest`)).toEqual(['Grazing land near York']);
    // Counted square by square (100 miles), and row of squares by row (250): every listing found, no more.
    for (const radius of [100, 250]) {
      const all = await browse(`?location=${PLACES.taunton.id}&radius=${radius}&limit=50`);
      expect([all.total, all.total_is_lower_bound]).toEqual([all.listings.length, false]);
    }
    expect((await browse(`?location=${PLACES.taunton.id}&radius=250&limit=50`)).total).toBeGreaterThan(
      (await browse(`?location=${PLACES.taunton.id}&radius=100&limit=50`)).total as number,
    );
  });

  it('pages with a cursor: no duplicates and no gaps while listings are added', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Page = await browse(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...page.listings.map((l) => l.title));
      cursor = page.next_cursor;
      pages++;
      await insertListing(db, { seller, title: `Added while browsing ${pages}` });
    } while (cursor);
    expect(seen).toHaveLength(6);
    expect(new Set(seen).size).toBe(6);
    expect(pages).toBe(3);
  });

  it.each([
    ['?category=tractors', { category: 'Invalid category selected' }],
    ['?sort=cheapest', { sort: 'sort must be one of: newest, oldest, price-low, price-high, popular, nearest, relevance, price-per-head' }],
    ['?radius=0&location=2636177', { radius: 'radius must be at least 1 mile' }],
    ['?min_price=abc', { min_price: 'min_price must be a number' }],
    ['?min_price=500&max_price=100', { max_price: 'max_price must not be below min_price' }],
    ['?location=taunton', { location: 'location must be a place id from the list, a postcode or an outcode' }],
    ['?category=equipment&hours_max=lots', { hours_max: 'hours_max must be a number' }],
    ['?limit=500', { limit: 'limit must be at most 50' }],
  ])('refuses %s with a clear message', async (query, fields) => {
    const response = await new Browser(t).call('GET', `/api/listings${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, fields });
  });

  // Every numeric filter, with numbers that overflow once converted (pounds to pence, miles to
  // metres), are not finite or not numbers at all: a 400 that names the filter, never a 500.
  const PRICE_RANGE = 'must be a number from 0 to 100,000,000';
  const NOT_NUMBERS = ['NaN', 'Infinity', '9'.repeat(400)];
  const refused = (query: string, fields: Record<string, string>): [string, Record<string, string>] => [query, fields];
  const numberCases = [
    ...['min_price', 'max_price'].flatMap((name) => [
      ...['1e308', '1e20', '-1', '100000000.01'].map((value) => refused(`?${name}=${value}`, { [name]: `${name} ${PRICE_RANGE}` })),
      ...NOT_NUMBERS.map((value) => refused(`?${name}=${value}`, { [name]: `${name} must be a number` })),
    ]),
    ...['1e308', '1e20', '501'].map((value) =>
      refused(`?location=2636177&radius=${value}`, { radius: 'radius must be at most 500 miles' }),
    ),
    ...NOT_NUMBERS.map((value) => refused(`?location=2636177&radius=${value}`, { radius: 'radius must be a whole number of miles' })),
    refused('?location=2636177&radius=-1', { radius: 'radius must be at least 1 mile' }),
    ...['1e308', '1e20', '-1', '200001'].map((value) =>
      refused(`?category=equipment&hours_max=${value}`, { hours_max: 'hours_max must be from 0 to 200000' }),
    ),
    ...NOT_NUMBERS.map((value) => refused(`?category=equipment&hours_min=${value}`, { hours_min: 'hours_min must be a number' })),
    refused('?category=equipment&year_min=2015&year_max=2010', { year_max: 'year_max must not be below year_min' }),
    refused('?limit=1e308', { limit: 'limit must be at most 50' }),
    refused('?limit=-1', { limit: 'limit must be at least 1' }),
    ...NOT_NUMBERS.map((value) => refused(`?limit=${value}`, { limit: 'limit must be a whole number' })),
  ];
  it.each(numberCases)('refuses the number in %s with a clear message', async (query, fields) => {
    const response = await new Browser(t).call('GET', `/api/listings${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ success: false, fields });
  });

  it('keeps the price bounds themselves: nothing is above the highest price a listing can have', async () => {
    expect(await titles('?min_price=0&max_price=100000000&category=land')).toEqual(['Grazing land near York']);
    expect(await titles('?min_price=100000000')).toEqual([]);
  });

  it.each([
    ['', '["x"]'],
    ['', '["yesterday","00000000-0000-0000-0000-000000000000"]'],
    ['', '["2026-11-01T00:00:00Z","not-an-id"]'],
    ['q=tractor&', '["very","2026-11-01T00:00:00Z","00000000-0000-0000-0000-000000000000"]'],
    ['q=tractor&', '["past-window","2026-11-01T00:00:00Z",7]'],
    ['sort=price-low&', '["1e400","00000000-0000-0000-0000-000000000000"]'],
    ['sort=popular&', '[2147483648,"00000000-0000-0000-0000-000000000000"]'],
  ])('refuses a forged cursor: ?%scursor=%s', async (query, values) => {
    const response = await new Browser(t).call('GET', `/api/listings?${query}cursor=${Buffer.from(values).toString('base64url')}`);
    expect([response.statusCode, response.json<{ error: string }>().error]).toEqual([
      400,
      'This page link is no longer valid. Start again from the first page.',
    ]);
  });

  it('suggests UK places for the location picker', async () => {
    const response = await new Browser(t).call('GET', '/api/places?q=taun');
    expect(response.json<{ data: Array<{ label: string; id: string }> }>().data[0]).toMatchObject({
      label: 'Taunton, England',
      id: PLACES.taunton.id,
    });
  });
});

describe('browse and search with more matches than are gathered', () => {
  const { db, t } = useTestApp({ OUTBOX_POLL_SECONDS: '300', API_RATE_LIMIT: '100000' });
  beforeAll(async () => {
    const seller = (await signedInPerson(t)).id;
    // 1,200 hay listings, every tenth in York, each a minute older than the one before; one also says "haylage".
    await db.query(
      `insert into listing (id, seller_id, type, category_id, title, description, price_pence, price_unit, vat, location_text, place_id,
         latitude, longitude, attributes, status, featured, views, saves_count, created_at, updated_at, published_at, expires_at)
       select gen_random_uuid(), $1, 'sale', 4, 'Hay bales lot ' || i || case when i = 600 then ' with haylage' else '' end,
         case when i % 3 = 0 then 'Hay, hay and more hay: small bales of meadow hay, stored dry in a barn all winter.'
              else 'Small bales of meadow grass, stored dry in a barn all winter, collection from the farm only.' end,
         1000 * i, 'total', 'no-vat', case when i % 10 = 0 then 'York, England' else 'Taunton, England' end,
         case when i % 10 = 0 then $2 else $3 end,
         case when i % 10 = 0 then $4::float8 else $5::float8 end, case when i % 10 = 0 then $6::float8 else $7::float8 end,
         '{}', 'live', false, 0, 0, now(), now(), now() - i * interval '1 minute', now() + interval '80 days'
       from generate_series(1, 1200) i`,
      [
        seller,
        PLACES.york.id,
        PLACES.taunton.id,
        PLACES.york.latitude,
        PLACES.taunton.latitude,
        PLACES.york.longitude,
        PLACES.taunton.longitude,
      ],
    );
    await db.query(`insert into listing_search_word (word) values ('hay'), ('bales'), ('lot'), ('haylage') on conflict do nothing`);
    await db.query('analyze listing');
  });

  const browse = (query: string) => browseAs(t, query);
  const everyPage = async (query: string): Promise<string[]> => {
    const titles: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Page = await browse(`${query}&limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      titles.push(...page.listings.map((l) => l.title));
      cursor = page.next_cursor;
    } while (cursor);
    return titles;
  };

  it('pages through a common word newest first, every match once, in order', async () => {
    const titles = await everyPage('?q=hay&sort=newest');
    expect(titles).toHaveLength(1200);
    expect(new Set(titles).size).toBe(1200);
    expect(titles.slice(0, 3)).toEqual(['Hay bales lot 1', 'Hay bales lot 2', 'Hay bales lot 3']);
    expect((await browse('?q=hay')).total_is_lower_bound).toBe(true);
  });

  it('ranks every match of a common word by relevance: more mentions first, the newest first among equals', async () => {
    const lots = (await everyPage('?q=hay')).map((title) => Number(/lot (\d+)/.exec(title)?.[1]));
    expect([lots.length, new Set(lots).size]).toEqual([1200, 1200]);
    // Each third says "hay" four times, and the oldest of them (lot 1,200) comes before the newest of the others.
    const many = Array.from({ length: 400 }, (_, i) => 3 * (i + 1));
    const once = Array.from({ length: 1200 }, (_, i) => i + 1).filter((lot) => lot % 3 !== 0);
    expect(lots.slice(0, 400).sort((a, b) => a - b)).toEqual(many);
    expect(lots.slice(0, 3)).toEqual([3, 6, 9]);
    expect(lots.slice(400)).toEqual(once);
  });

  it('goes on past the ranked matches of several common words, newest first, so every match is reached once', async () => {
    const titles = await everyPage('?q=hay%20meadow');
    expect(titles).toHaveLength(1200);
    expect(new Set(titles).size).toBe(1200);
    expect(titles.slice(0, 3)).toEqual(['Hay bales lot 3', 'Hay bales lot 6', 'Hay bales lot 9']);
    // The ranked window holds the newest 250; the rest follow newest first.
    expect(titles.slice(250, 253)).toEqual(['Hay bales lot 251', 'Hay bales lot 252', 'Hay bales lot 253']);
  });

  it('counts and pages several words, every match once, phrases and exclusions too', async () => {
    // "grass" is in the description of every listing but each third; "hay" and "meadow" are in all.
    const both = await browse('?q=grass%20hay&sort=newest');
    expect([both.total, both.total_is_lower_bound, both.listings[0]?.title]).toEqual([800, false, 'Hay bales lot 1']);
    const titles = await everyPage('?q=meadow%20grass%20hay&sort=newest');
    expect([titles.length, new Set(titles).size]).toEqual([800, 800]);
    expect((await browse('?q=hay%20meadow')).total_is_lower_bound).toBe(true);
    // The one "haylage" listing is among each third, which say nothing of grass.
    expect(await browse('?q=haylage%20grass')).toMatchObject({ total: 0, listings: [] });
    expect((await browse('?q=%22meadow%20grass%22')).total).toBe(800);
    expect((await browse('?q=grass%20-barn')).total).toBe(0);
    expect((await browse('?q=grass%20or%20haylage')).total).toBe(801);
  });

  it('finds a rare word among common ones, sorted as asked', async () => {
    expect((await browse('?q=haylage&sort=price-high')).listings.map((l) => l.title)).toEqual(['Hay bales lot 600 with haylage']);
  });

  it('finds the few listings near a remote place nearest first, and the many near a busy one', async () => {
    const york = await everyPage(`?location=${PLACES.york.id}&radius=10&sort=nearest`);
    expect(york).toHaveLength(120);
    expect(await browse(`?location=${PLACES.york.id}&radius=10`)).toMatchObject({ total: 120, total_is_lower_bound: false });
    expect(await browse(`?location=${PLACES.taunton.id}&radius=10`)).toMatchObject({ total: 1000, total_is_lower_bound: true });
    const taunton = await everyPage(`?location=${PLACES.taunton.id}&radius=10&sort=newest`);
    expect(taunton).toHaveLength(1080);
    expect(new Set(taunton).size).toBe(1080);
    // The busy place's 1,080 listings all stand at one spot: nearest first still pages through each once.
    const tauntonNearest = await everyPage(`?location=${PLACES.taunton.id}&radius=10&sort=nearest`);
    expect(tauntonNearest).toHaveLength(1080);
    expect(new Set(tauntonNearest).size).toBe(1080);
  });

  it('finds the newest and the oldest within a radius in squares at its edge, and none beyond it', async () => {
    const { latitude, longitude } = PLACES.taunton;
    // Due north of Taunton: 23 miles is within 25, in a square reaching past 25 miles; 26 miles is beyond.
    const north = (miles: number) => latitude + miles / 69.05;
    const cell = (lat: number) =>
      Math.floor((lat + 90) / GEO_CELL.latitudeDegrees) * GEO_CELL.rowStride + Math.floor((longitude + 180) / GEO_CELL.longitudeDegrees);
    const squares = cellsWithin(latitude, longitude, 25, boundsAround(latitude, longitude, 25) as Bounds) as number[];
    const whole = cellsWhollyWithin(latitude, longitude, 25, squares);
    expect([whole.includes(cell(latitude)), squares.includes(cell(north(23))), whole.includes(cell(north(23)))]).toEqual([
      true,
      true,
      false,
    ]);
    const seller = (await db.query<{ id: string }>(`select id from app_user limit 1`))[0]?.id as string;
    const add = async (title: string, miles: number, minutes: number, publishedAt = new Date(Date.now() + minutes * 60_000)) => {
      const id = await insertListing(db, { seller, title, publishedAt });
      await db.query(`update listing set latitude = $2, longitude = $3 where id = $1`, [id, north(miles), longitude]);
    };
    for (const [i, minutes] of [1, 2, 3].entries()) await add(`Edge newest ${i}`, 23, minutes);
    // And one between the second and third listings of Taunton itself.
    const [between] = await db.query<{ at: Date }>(
      `select to_timestamp(avg(extract(epoch from published_at))) as at from listing where title in ('Hay bales lot 2', 'Hay bales lot 3')`,
    );
    await add('Edge between', 23, 0, between?.at);
    for (const minutes of [4, 5]) await add(`Beyond newest`, 26, minutes);
    for (const [i, minutes] of [-5000, -5001].entries()) await add(`Edge oldest ${i}`, 23, minutes);
    for (const minutes of [-5002, -5003]) await add(`Beyond oldest`, 26, minutes);
    const near = `?location=${PLACES.taunton.id}&radius=25&limit=7`;
    expect((await browse(`${near}&sort=newest`)).listings.map((l) => l.title)).toEqual([
      'Edge newest 2',
      'Edge newest 1',
      'Edge newest 0',
      'Hay bales lot 1',
      'Hay bales lot 2',
      'Edge between',
      'Hay bales lot 3',
    ]);
    expect((await browse(`${near}&sort=oldest`)).listings.map((l) => l.title).slice(0, 3)).toEqual([
      'Edge oldest 1',
      'Edge oldest 0',
      'Hay bales lot 1199',
    ]);
  });
});

describe('word postings', () => {
  const db = useTestDatabase({ queueSchema: false });

  it('are written by whatever writes listings, and emptied with them', async () => {
    const [seller] = await db.query<{ id: string }>(
      `insert into app_user (id, email, full_name, provider, role, profile_visible, contact_visible, listings_visible,
         email_notifications, push_notifications, created_at, updated_at, last_active_at)
       values (gen_random_uuid(), 'postings@example.com', 'Posting Seller', 'password', 'user', true, true, true, true, true, now(), now(), now())
       returning id`,
    );
    const id = await insertListing(db, { seller: (seller as { id: string }).id, title: 'Zetor Crystal tractor' });
    const words = async () =>
      (await db.query<{ lexeme: string }>('select lexeme from listing_term where listing_id = $1', [id])).map((r) => r.lexeme);
    expect(await words()).toEqual(expect.arrayContaining(['zetor', 'crystal', 'tractor']));
    await db.query(`update listing set views = views + 1 where id = $1`, [id]);
    expect(await words()).toEqual(expect.arrayContaining(['zetor', 'crystal', 'tractor']));
    // Each posting carries the listing's price, and follows a change of it (words sorted by price read it).
    const prices = async () =>
      (await db.query<{ price: string }>('select distinct price_pence::text as price from listing_term where listing_id = $1', [id])).map(
        (r) => r.price,
      );
    const [listed] = await db.query<{ price: string }>('select price_pence::text as price from listing where id = $1', [id]);
    expect(await prices()).toEqual([listed?.price]);
    await db.query(`update listing set price_pence = 123456 where id = $1`, [id]);
    expect(await prices()).toEqual(['123456']);
    // And its category and place (words within a radius, in a category, are counted from them).
    await db.query(`update listing set category_id = 3, latitude = 54.5, longitude = -2.5 where id = $1`, [id]);
    const places = await db.query<{ category_id: number; latitude: number; longitude: number; geo_cell: number; listed_cell: number }>(
      `select distinct t.category_id, t.latitude, t.longitude, t.geo_cell, l.geo_cell as listed_cell
        from listing_term t join listing l on l.id = t.listing_id where t.listing_id = $1`,
      [id],
    );
    expect(places).toEqual([expect.objectContaining({ category_id: 3, latitude: 54.5, longitude: -2.5 })]);
    expect(places[0]?.geo_cell).toBe(places[0]?.listed_cell);
    // Each posting's rank is the listing's rank in a search for that word alone.
    const ranks = await db.query<{ lexeme: string; stored: string; searched: string }>(
      `select t.lexeme, t.rank::text as stored,
         round(ts_rank_cd(l.search_vector, websearch_to_tsquery('english', t.lexeme), 1)::numeric, 6)::text as searched
       from listing_term t join listing l on l.id = t.listing_id where l.id = $1`,
      [id],
    );
    expect(ranks.length).toBeGreaterThanOrEqual(3);
    for (const row of ranks) expect(row.stored).toBe(row.searched);
    expect(Number(ranks.find((row) => row.lexeme === 'zetor')?.stored)).toBeGreaterThan(0);
    await db.query(`truncate listing cascade`);
    expect(await db.query('select 1 from listing_term')).toEqual([]);
  });

  it('rank words that hold the characters of query operators as plain words', async () => {
    const words = [`o'brien`, 'back\\slash', 'x:*', '&|!<->', `''`];
    // A listing's words as a tsvector holds them, each at its position.
    const vector = words.map((word, i) => `'${word.replaceAll('\\', '\\\\').replaceAll("'", "''")}':${i + 1}`).join(' ');
    const rows = await db.query<{ lexeme: string; rank: string }>(
      `select w as lexeme, listing_term_rank($2::tsvector, w)::text as rank from unnest($1::text[]) w`,
      [words, vector],
    );
    expect(rows.map((row) => row.lexeme)).toEqual(words);
    for (const row of rows) expect(Number(row.rank)).toBeGreaterThan(0);
  });
});
