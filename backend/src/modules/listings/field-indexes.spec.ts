import { describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CATEGORY_FIELDS, isFilterable } from '../../contracts/listings.js';
import { numbered } from '../../infra/database/prepared-queries.js';
import { useTestDatabase } from '../../testing/test-context.js';
import { fieldIndexPlan } from './field-indexes.js';
import { ListingSearchSql, type ListingQuery } from './listing-search/search-sql.js';

describe('the index plan of the filterable category fields', () => {
  it('gives every field search filters on (a filter, a range, a valid-on date) its index, once per key', () => {
    const plan = fieldIndexPlan();
    const searched = Object.values(CATEGORY_FIELDS)
      .flat()
      .filter((field) => isFilterable(field) || ((field.kind === 'integer' || field.kind === 'decimal') && field.range))
      .map((field) => field.key);
    expect(plan.map((object) => object.key).sort()).toEqual([...new Set(searched)].sort());
    // A value: its index newest first, and each choice's by grid square.
    expect(plan.find((object) => object.key === 'tb_status')).toMatchObject({
      match: 'value',
      indexes: ['', '_otf_place', '_otf_withdrawn_place', '_otf_suspended_place', '_not_applicable_place'].map((part) => ({
        name: `listing_field_tb_status${part}_index`,
      })),
      statistics: { name: 'listing_field_tb_status_stats' },
    });
    expect(plan.find((object) => object.key === 'pedigree')?.indexes.map((index) => index.name)).toEqual([
      'listing_field_pedigree_index',
      'listing_field_pedigree_true_place_index',
      'listing_field_pedigree_false_place_index',
    ]);
    expect(plan.find((object) => object.key === 'make')?.indexes.map((index) => index.name)).toEqual(['listing_field_make_index']);
    expect(plan.find((object) => object.key === 'acres')).toMatchObject({
      match: 'range',
      indexes: [{ name: 'listing_field_acres_index' }],
    });
    // "Has any of": an index for each choice (PostgreSQL's statistics of several columns do not estimate @>).
    const designations = plan.find((object) => object.key === 'designations');
    const declared = CATEGORY_FIELDS.land.find((field) => field.key === 'designations');
    const options = declared?.kind === 'choices' ? Object.keys(declared.options) : [];
    expect(options).toContain('green-belt');
    expect(designations?.indexes.map((index) => index.name)).toEqual(
      options.map((option) => `listing_field_designations_${option.replaceAll('-', '_')}_index`),
    );
    expect(designations?.statistics).toBeUndefined();
  });

  it('makes a newly declared filterable field its own index with no more than its declaration', () => {
    const declared = {
      ...CATEGORY_FIELDS,
      land: [
        ...CATEGORY_FIELDS.land,
        { key: 'drainage', label: 'Drainage', kind: 'choice' as const, options: { good: 'Good' }, filter: true },
      ],
    };
    const drainage = fieldIndexPlan(declared).find((object) => object.key === 'drainage');
    expect(drainage?.indexes[0]?.create).toContain(`create index if not exists "listing_field_drainage_index" on "listing"`);
    expect(drainage?.statistics?.create).toContain(`create statistics if not exists "listing_field_drainage_stats"`);
  });

  it('refuses one key searched two ways in two categories', () => {
    const declared = {
      ...CATEGORY_FIELDS,
      services: [
        ...CATEGORY_FIELDS.services,
        { key: 'acres', label: 'Acres', kind: 'choice' as const, options: { few: 'Few' }, filter: true },
      ],
    };
    expect(() => fieldIndexPlan(declared)).toThrow('Category field acres is searched as range in one category and value in another');
  });
});

describe('the migrated database', () => {
  const db = useTestDatabase({ queueSchema: false });

  it('holds an index for every filterable category field, and statistics where PostgreSQL can use them', async () => {
    const indexes = (await db.query<{ name: string }>(`select indexname as name from pg_indexes where tablename = 'listing'`)).map(
      (row) => row.name,
    );
    const statistics = (await db.query<{ name: string }>(`select stxname as name from pg_statistic_ext`)).map((row) => row.name);
    // A field declared without a migration naming it (fieldIndexSql) is listed here.
    const missing = fieldIndexPlan().flatMap((object) => [
      ...object.indexes.filter((index) => !indexes.includes(index.name)).map((index) => index.name),
      ...(object.statistics && !statistics.includes(object.statistics.name) ? [object.statistics.name] : []),
    ]);
    expect(missing).toEqual([]);
  });

  it("finds a search's matches through the field's own index: the search writes the index's expressions", async () => {
    const query = (filters: Partial<ListingQuery>): ListingQuery => ({ categoryId: 3, sort: 'newest', limit: 20, ...filters });
    const searches: Array<[ListingQuery, string]> = [
      [query({ attributeMatches: [{ key: 'tb_status', equals: 'otf' }] }), 'listing_field_tb_status_otf_place_index'],
      [query({ attributeMatches: [{ key: 'pedigree', equals: true }] }), 'listing_field_pedigree_true_place_index'],
      [
        query({ attributeMatches: [{ key: 'pre_movement_test', dateFrom: '2026-10-01', dateTo: '2026-11-30' }] }),
        'listing_field_pre_movement_test_index',
      ],
      [query({ categoryId: 1, attributeRanges: [{ key: 'acres', min: 50, max: 100 }] }), 'listing_field_acres_index'],
      [query({ categoryId: 1, attributeMatches: [{ key: 'designations', anyOf: ['nvz'] }] }), 'listing_field_designations_nvz_index'],
      [
        query({ categoryId: 1, attributeMatches: [{ key: 'designations', anyOf: ['nvz', 'green-belt'] }] }),
        'listing_field_designations_green_belt_index',
      ],
    ];
    // 3,000 listings over five categories, each field given to a few of its category's.
    await db.query(
      `with seller as (insert into app_user (id, email, full_name, provider, role, profile_visible, contact_visible, listings_visible,
           email_notifications, push_notifications, created_at, updated_at, last_active_at)
         values (gen_random_uuid(), 'fields@example.com', 'Field Seller', 'password', 'user', true, true, true, true, true, now(), now(), now())
         returning id)
       insert into listing (id, seller_id, type, category_id, title, description, price_pence, price_unit, vat, location_text, place_id,
         latitude, longitude, attributes, status, featured, views, saves_count, created_at, updated_at, published_at, expires_at)
       select gen_random_uuid(), seller.id, 'sale', 1 + i % 5, 'Lot ' || i, 'Listing ' || i, 5000 + i, 'total', 'no-vat', 'Taunton', '2636177',
         51.01, -3.1, case 1 + i % 5
           when 1 then jsonb_build_object('acres', i % 300) || case when i % 50 = 0 then '{"designations": ["nvz"]}' when i % 50 = 10 then '{"designations": ["green-belt"]}' else '{}' end::jsonb
           when 3 then case when i % 50 = 2 then '{"species": "cattle", "tb_status": "otf", "pedigree": true, "pre_movement_test": "2026-11-01"}'
             else '{"species": "sheep"}' end::jsonb
           else '{}'::jsonb end,
         'live', false, 0, 0, now(), now(), now() - i * interval '1 minute', now() + interval '80 days'
       from seller, generate_series(1, 3000) i`,
    );
    await db.query('analyze listing');
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // Whether the index can serve the search, not whether it is the cheapest way among so few listings.
      await client.query('set enable_seqscan = off');
      for (const [search, index] of searches) {
        const count = new ListingSearchSql(search).count(1000, {});
        const { text, values } = numbered(count.sql, count.params);
        const plan = await client.query<{ 'QUERY PLAN': string }>(`explain ${text}`, values);
        expect({ index, plan: plan.rows.map((row) => row['QUERY PLAN']).join('\n') }).toEqual({
          index,
          plan: expect.stringContaining(index),
        });
      }
    } finally {
      await client.end();
    }
  });
});
