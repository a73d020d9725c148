import { randomUUID } from 'node:crypto';
import type { Browser } from './accounts.js';
import { uploadPhotos } from './images.js';
import type { TestDatabase } from './test-database.js';

/** Places of the GeoNames dataset the tests use, with their ids. */
export const PLACES = {
  taunton: { id: '2636177', latitude: 51.01494, longitude: -3.10293, label: 'Taunton, England' },
  bridgwater: { id: '2654730', latitude: 51.12837, longitude: -3.00356, label: 'Bridgwater, England' },
  minehead: { id: '2642450', latitude: 51.20452, longitude: -3.48284, label: 'Minehead, England' },
  exeter: { id: '2649808', latitude: 50.7236, longitude: -3.52751, label: 'Exeter, England' },
  york: { id: '2633352', latitude: 53.95763, longitude: -1.08271, label: 'York, England' },
} as const;

export interface ListingFixture {
  seller: string;
  title: string;
  description?: string;
  category?: number;
  type?: 'sale' | 'rent';
  rentSubcategory?: string;
  pricePence?: number;
  priceUnit?: string;
  vat?: string;
  place?: keyof typeof PLACES;
  attributes?: Record<string, unknown>;
  status?: string;
  featured?: boolean;
  views?: number;
  publishedAt?: Date;
  expiresAt?: Date;
}

/** A listing written straight to the table (no photos), for tests of search, pages and life cycle. */
export async function insertListing(db: TestDatabase, fixture: ListingFixture): Promise<string> {
  const id = randomUUID();
  const place = PLACES[fixture.place ?? 'taunton'];
  const published = fixture.publishedAt ?? new Date();
  await db.query(
    `insert into listing (id, seller_id, type, category_id, rent_subcategory, title, description, price_pence, price_unit, vat,
       location_text, place_id, latitude, longitude, attributes, status, featured, views, saves_count, created_at, updated_at,
       published_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $19, $20, $9, $10, $11, $12, $13, $14, $15, $16, 0, $17, $17, $17, $18)`,
    [
      id,
      fixture.seller,
      fixture.type ?? 'sale',
      fixture.category ?? 2,
      fixture.rentSubcategory ?? null,
      fixture.title,
      fixture.description ?? `${fixture.title}. Well looked after, available to view by appointment on the farm.`,
      fixture.pricePence ?? 100_000,
      place.label,
      place.id,
      place.latitude,
      place.longitude,
      JSON.stringify(fixture.attributes ?? {}),
      fixture.status ?? 'live',
      fixture.featured ?? false,
      fixture.views ?? 0,
      published,
      fixture.expiresAt ?? new Date(published.getTime() + 90 * 24 * 3600 * 1000),
      fixture.priceUnit ?? 'total',
      fixture.vat ?? 'no-vat',
    ],
  );
  const words = [...new Set(fixture.title.toLowerCase().match(/[a-z]{3,30}/g) ?? [])];
  for (const word of words) await db.query('insert into listing_search_word (word) values ($1) on conflict do nothing', [word]);
  return id;
}

/** What the wizard sends for a listing of each category for sale (with that category's own fields), and for a rental. */
export const LISTING_BODIES = {
  equipment: {
    type: 'sale',
    category: 'equipment',
    title: 'Massey Ferguson 5713 SL tractor',
    description: 'Serviced every year and kept in a shed. Tyres good, no leaks. Can deliver within 50 miles at cost.',
    price: 38500,
    price_unit: 'total',
    vat: 'plus-vat',
    attributes: { make: 'Massey Ferguson', model: '5713 SL', year: 2019, hours: 2400 },
  },
  livestock: {
    type: 'sale',
    category: 'livestock',
    title: 'Twelve North Devon heifers',
    description: 'Quiet, halter trained, TB tested in the spring. From a closed herd on the Quantocks; can be seen by appointment.',
    price: 1450,
    price_unit: 'per-head',
    vat: 'no-vat',
    attributes: { breed: 'North Devon', sex: 'female', age_months: 20, head_count: 12 },
  },
  land: {
    type: 'sale',
    category: 'land',
    title: 'Twelve acres of grazing near the river',
    description: 'Level pasture with mains water to two troughs, stock fencing all round and a gateway onto the lane.',
    price: 150000,
    price_unit: 'total',
    vat: 'no-vat',
    attributes: { acres: 12, tenure: 'freehold' },
  },
  'seeds-plants': {
    type: 'sale',
    category: 'seeds-plants',
    title: 'Small bales of meadow hay',
    description: 'Made in June without rain, stored in a dry barn. Collection from the farm, help with loading given.',
    price: 6,
    price_unit: 'total',
    vat: 'no-vat',
    attributes: { variety: 'Meadow hay', quantity: 200, quantity_unit: 'bales', organic: false },
  },
  services: {
    type: 'sale',
    category: 'services',
    title: 'Hedge cutting with a flail',
    description: 'Tractor-mounted flail for hedges and verges, fully insured, operator with twenty years of experience.',
    price: 45,
    price_unit: 'total',
    vat: 'plus-vat',
    attributes: { coverage_miles: 25 },
  },
  rentals: {
    type: 'rent',
    category: 'rentals',
    subcategory: 'equipment',
    title: 'Livestock trailer for hire',
    description: 'Ifor Williams 12 ft livestock trailer with decks, hired by the day or the week; towing hitch needed.',
    price: 60,
    price_unit: 'per-day',
    vat: 'included',
    attributes: { make: 'Ifor Williams', model: 'DP120' },
  },
} as const;

/**
 * The body of POST /api/listings for the equipment listing in Taunton, declared over 18, with `change`
 * on top (spread one of LISTING_BODIES into it for another category). Unless `change` brings its own
 * `images`, `photos` photos are uploaded as `browser` first (without waiting for their variants).
 */
export async function listingBody(browser: Browser, change: Record<string, unknown> = {}, photos = 1): Promise<Record<string, unknown>> {
  return {
    ...LISTING_BODIES.equipment,
    location: 'Taunton',
    place_id: PLACES.taunton.id,
    confirm_over_18: true,
    seller_type: 'private',
    ...change,
    images: 'images' in change ? change['images'] : await uploadPhotos(browser, photos, { ready: false }),
  };
}

/** Posts a listing through the API as `browser` (see listingBody); fails unless it is created. Returns the answer's data. */
export async function postListing<T = { id: string; images: Array<{ id: string }> }>(
  browser: Browser,
  change: Record<string, unknown> = {},
  photos = 1,
): Promise<T> {
  const response = await browser.call('POST', '/api/listings', await listingBody(browser, change, photos));
  if (response.statusCode !== 201) throw new Error(`${response.statusCode} ${response.body}`);
  return response.json<{ data: T }>().data;
}

/**
 * The SQL of listings made in bulk over the five PLACES (insertListingsOverPlaces), each of `i` (1 to
 * the count) and its place `p`; `$2` is the caller's value.
 */
export interface BulkListings {
  count: number;
  category: string;
  title: string;
  attributes: string;
  /** How far from its place a listing lies: up to this many hundredths of a degree each way. */
  spread: number;
  featured: string;
  publishedAt: string;
  value: unknown;
}

/** Listings of one seller spread over the five PLACES (i % 5), a little apart at each, one in twenty sold; then analysed. */
export async function insertListingsOverPlaces(db: TestDatabase, seller: string, bulk: BulkListings): Promise<void> {
  const places = Object.values(PLACES).map((place, n) => ({ n, ...place }));
  await db.query(
    `insert into listing (id, seller_id, type, category_id, title, description, price_pence, price_unit, vat, location_text, place_id,
       latitude, longitude, attributes, status, featured, views, saves_count, created_at, updated_at, published_at, expires_at)
     select gen_random_uuid(), $1, 'sale', ${bulk.category}, ${bulk.title}, 'Listing ' || i, 5000 + (i * 7919) % 2000000, 'total', 'no-vat',
       p.label, p.id, p.latitude + ((i * 31) % ${bulk.spread}) * 0.01, p.longitude + ((i * 17) % ${bulk.spread}) * 0.01, ${bulk.attributes},
       case when i % 20 = 0 then 'sold' else 'live' end, ${bulk.featured}, (i * 37) % 300, 0, now(), now(), ${bulk.publishedAt},
       now() + interval '80 days'
     from generate_series(1, ${bulk.count}) i
     join (select * from jsonb_to_recordset($3::jsonb) as x(n int, id text, label text, latitude float8, longitude float8)) p on p.n = i % 5`,
    [seller, bulk.value, JSON.stringify(places)],
  );
  await db.query('analyze listing');
}
