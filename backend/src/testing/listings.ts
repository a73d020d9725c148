import { randomUUID } from 'node:crypto';
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
     values ($1, $2, $3, $4, $5, $6, $7, $8, 'total', 'no-vat', $9, $10, $11, $12, $13, $14, $15, $16, 0, $17, $17, $17, $18)`,
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
    ],
  );
  const words = [...new Set(fixture.title.toLowerCase().match(/[a-z]{3,30}/g) ?? [])];
  for (const word of words) await db.query('insert into listing_search_word (word) values ($1) on conflict do nothing', [word]);
  return id;
}
