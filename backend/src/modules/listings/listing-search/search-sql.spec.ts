import { describe, expect, it } from '@jest/globals';
import type { ListingSort } from '../../../contracts/listings.js';
import { PLACES } from '../../../testing/listings.js';
import { type ListingQuery, ListingSearchSql, type SearchPlan } from './search-sql.js';

const SORTS: ListingSort[] = ['newest', 'oldest', 'price-low', 'price-high', 'popular', 'nearest', 'relevance'];
const PLANS: SearchPlan[] = [
  { kind: 'walk' },
  { kind: 'gather' },
  { kind: 'newest' },
  { kind: 'walk', lexeme: 'hay', lexemeOnly: true },
  { kind: 'gather', lexeme: 'hay' },
];

/** Every statement a search can send under each plan: page, count, the count that gathers, relevance's window edge. */
function statements(query: ListingQuery): Array<{ page: boolean; sql: string }> {
  const sql = new ListingSearchSql(query);
  return PLANS.flatMap((shape) => {
    const plan = { ...shape, text: query.sort === 'relevance' || shape.lexeme ? 'hay' : undefined };
    return [
      { page: true, sql: sql.page(plan).sql },
      { page: true, sql: sql.countedGather(1000, plan).sql },
      { page: false, sql: sql.count(1000, plan).sql },
      { page: false, sql: sql.windowEdge(plan).sql },
    ];
  });
}

describe("a search's row counts are written into its SQL, never bound", () => {
  // A prepared statement's generic plan guesses a bound LIMIT at a tenth of the rows: the related
  // listings of a listing page then sorted a whole category by distance (1.8 s at a million).
  it('has no bound LIMIT or OFFSET in any statement of any sort, place, radius, filter or plan', () => {
    for (const sort of SORTS)
      for (const radiusMiles of [undefined, 5, 25, 250])
        for (const limit of [4, 20, 40])
          for (const categoryId of [undefined, 3]) {
            const query: ListingQuery = {
              sort,
              limit,
              categoryId,
              minPricePence: categoryId ? 500_000 : undefined,
              near:
                sort === 'nearest' || radiusMiles ? { latitude: PLACES.taunton.latitude, longitude: PLACES.taunton.longitude } : undefined,
              radiusMiles,
            };
            for (const { page, sql } of statements(query)) {
              expect({ query, bound: /\b(limit|offset)\s*\?/i.test(sql) }).toEqual({ query, bound: false });
              // A page reads a row more than it shows, to know whether another follows.
              if (page) expect(sql).toMatch(new RegExp(`\\blimit ${limit + 1}\\b`));
            }
          }
  });

  it('refuses a page size that is not a whole number rather than write it into SQL', () => {
    const sql = new ListingSearchSql({ sort: 'newest', limit: 4.5 });
    expect(() => sql.page({ kind: 'walk' })).toThrow(TypeError);
  });
});

describe('a category within a wide radius is counted square by square in the grid index', () => {
  const near = { latitude: PLACES.taunton.latitude, longitude: PLACES.taunton.longitude };
  // Through the category's index PostgreSQL read every listing of the category into a bitmap, then
  // their rows for the distance ("livestock within 250 miles by views", the slowest of the mix).
  it('counts livestock within 100 or 250 miles by the radius’s squares, under a plan fixed by its SQL', () => {
    for (const radiusMiles of [100, 250]) {
      const sql = new ListingSearchSql({ sort: 'popular', limit: 20, categoryId: 3, near, radiusMiles });
      expect({ radiusMiles, fixed: sql.countPlanFixed({}) }).toEqual({ radiusMiles, fixed: true });
      expect(sql.count(1000, {}).sql).toMatch(/cross join lateral \(select 1 from listing l where l\.geo_cell (=|between) g\./);
    }
  });

  it('leaves a narrow radius, or a category with a price, to a count planned for its values', () => {
    const narrowRadius = new ListingSearchSql({ sort: 'popular', limit: 20, categoryId: 3, near, radiusMiles: 25 });
    const priced = new ListingSearchSql({ sort: 'popular', limit: 20, categoryId: 3, maxPricePence: 100_000, near, radiusMiles: 250 });
    expect([narrowRadius.countPlanFixed({}), priced.countPlanFixed({})]).toEqual([false, false]);
  });
});
