import { Inject, Injectable } from '@nestjs/common';
import { FieldValidationException } from '../../../common/errors.js';
import { decodeCursor, encodeCursor } from '../../../common/keyset-pagination.js';
import { categoryBySlug } from '../../../contracts/categories.js';
import { DATE_RANGES } from '../../../contracts/listings.js';
import { PreparedQueries } from '../../../infra/database/prepared-queries.js';
import { Geocoder } from '../../../infra/geocoding/geocoder.js';
import { canonicalPostcode } from '../../../contracts/postcodes.js';
import type { ListingPage } from '../dto/listing.response.js';
import { ListingCards } from '../listing-cards.js';
import { SearchPlanner, TOTAL_CAP } from './planner.js';
import { SearchAnswers } from './search-answers.js';
import { attributeMatches, type SearchPosition, type SearchQuery, searchQueryParams } from './search-query.js';
import { pageRows, type RowsPage, searchRows } from './search-rows.js';
import {
  GATHER_LIMIT,
  type KeyedTest,
  type ListingQuery,
  type ListingRow,
  ListingSearchSql,
  passingTests,
  type SearchPlan,
} from './search-sql.js';
import { Spelling } from './spelling.js';

/** Marks a relevance cursor that has gone past the ranked window (continuingCursor). */
const PAST_WINDOW = 'past-window';

/**
 * Browse and search, the use case: a checked SearchQuery in (parseSearchQuery), one page of cards
 * out. A search goes through here only: the query resolved against the database (a place's
 * coordinates, a category's id), its SQL built once (ListingSearchSql), planned (SearchPlanner),
 * the page, its count and the relevance window's edge read under that plan, and a search that
 * finds nothing tried again with its spelling corrected (Spelling). Every read goes to the read
 * replica when there is one: the answer is the same for everyone, a moment late at worst.
 */
@Injectable()
export class ListingSearch {
  constructor(
    @Inject(Geocoder) private readonly geocoder: Geocoder,
    @Inject(ListingCards) private readonly cards: ListingCards,
    @Inject(SearchPlanner) private readonly planner: SearchPlanner,
    @Inject(Spelling) private readonly spelling: Spelling,
    @Inject(SearchAnswers) private readonly answers: SearchAnswers,
    @Inject(PreparedQueries) private readonly prepared: PreparedQueries,
  ) {}

  /**
   * One page of listings; answers are the same for everyone, so a repeated query is served from the
   * cache. `client` (clientKey of the asker's address): a postcode not yet known counts against their lookups.
   */
  search(query: SearchQuery, position: SearchPosition, client?: string): Promise<ListingPage> {
    return this.answers.get(searchQueryParams(query, position).toString(), () => this.searchNow(query, position, client));
  }

  private async searchNow(asked: SearchQuery, position: SearchPosition, client: string | undefined): Promise<ListingPage> {
    const { query, pastWindow } = afterRelevanceWindow(await this.resolved(asked, position, client));
    // The search's one SQL: every plan below (a spelling correction's too) is read through it.
    const sql = this.cards.sql(query);
    const count = (plan: SearchPlan) => this.count(sql, plan);
    // Planning's count gathers the page too (countedGather) where few matches are likely: with words
    // or a place. Filters alone (a category, a price, a farm value) mostly match more than are
    // gathered at scale, and then a plain count costs less to plan (the bench's farm filters took
    // 1 to 2 ms longer at a million listings through countedGather).
    let gathered: RowsPage | undefined;
    const countOrGather = async (plan: SearchPlan) => {
      if (sql.countPlanFixed(plan) || !(plan.text || query.radiusMiles)) return count(plan);
      const counted = await this.countedGather(sql, plan);
      gathered = counted.page;
      return counted.total;
    };
    // A list that shows no count (a listing page's related listings) is not counted where a walk needs no count to be planned.
    const uncounted = position.counted === false;
    let plan =
      uncounted && !asked.text && sql.nearestWalkBounded()
        ? { kind: 'walk' as const }
        : await this.planner.plan(sql, query, asked.text, countOrGather);
    // A first page counts its matches beside finding them (two connections), unless planning counted already.
    const [found, counted] = await Promise.all([
      plan.kind === 'gather' && gathered ? gathered : pageRows(this.prepared, sql, plan, 'replica'),
      query.cursor || uncounted || plan.matches !== undefined ? undefined : count(plan),
    ]);
    let page = { ...found, nextCursor: await this.continuingCursor(sql, plan, pastWindow, found.nextCursor) };
    let searchedFor: string | null = null;
    // Nothing for these words, on a first page: look for the words that were probably meant.
    if (plan.text && !query.cursor && page.rows.length === 0) {
      const corrected = await this.spelling.corrected(plan.text);
      if (corrected && corrected !== plan.text) {
        plan = await this.planner.plan(sql, query, corrected, count);
        page = await pageRows(this.prepared, sql, plan, 'replica');
        searchedFor = corrected;
      }
    }
    const total = query.cursor || uncounted ? null : (plan.matches ?? counted ?? (await count(plan)));
    return {
      listings: this.cards.cards(page.rows.slice(0, query.limit), query.near),
      next_cursor: page.nextCursor,
      total: total === null ? null : Math.min(total, TOTAL_CAP),
      total_is_lower_bound: total !== null && total > TOTAL_CAP,
      searched_for: searchedFor,
    };
  }

  /**
   * Which of these queries find this live listing: saved searches and wanted ads asked of a new
   * listing, by browse's own filters (ListingSearchSql.test, the query's words among them), in one
   * statement however many (passingTests). Reads the primary: the listing was usually posted a moment
   * ago. A query that no longer resolves (its place gone, the postcode service down) finds nothing,
   * rather than failing the others.
   */
  async finding(queries: ReadonlyArray<{ key: string; query: SearchQuery }>, listingId: string): Promise<string[]> {
    const tests = await Promise.all(
      queries.map(async ({ key, query }): Promise<KeyedTest | undefined> => {
        const resolved = await this.resolved(query, { limit: 1 }).catch(() => undefined);
        if (!resolved) return undefined;
        // Given by id, the listing needs none of the radius's grid squares worked out.
        const sql = new ListingSearchSql({ ...resolved, ids: [listingId], statuses: ['live'], sort: 'newest', cursor: undefined });
        return { key, ...sql.test(query.text) };
      }),
    );
    const passing = passingTests(
      tests.filter((test) => test !== undefined),
      listingId,
    );
    if (!passing) return [];
    const rows = await this.prepared.bound<{ key: string }>(passing.sql, passing.params, 'primary');
    return rows.map((row) => row.key);
  }

  /** The query as the database knows it: the place's coordinates (a place id that names none is refused), the category's id. */
  async resolved(asked: SearchQuery, position: SearchPosition, client?: string): Promise<ListingQuery> {
    const place = asked.location ? await this.geocoder.byId(asked.location, { client }) : undefined;
    if (asked.location && !place) throw new FieldValidationException({ location: unknownLocationText(asked.location) });
    return {
      categoryId: asked.category ? categoryBySlug(asked.category)?.id : undefined,
      rentSubcategory: asked.subcategory,
      type: asked.type,
      minPricePence: asked.minPricePence,
      maxPricePence: asked.maxPricePence,
      priceUnit: asked.priceUnit,
      near: place,
      radiusMiles: place ? asked.radiusMiles : undefined,
      verifiedSellersOnly: asked.verifiedSellersOnly,
      featuredOnly: asked.featuredOnly,
      postedWithinDays: asked.postedWithin ? DATE_RANGES[asked.postedWithin] : undefined,
      attributeRanges: asked.attributeRanges,
      attributeMatches: attributeMatches(asked),
      sort: asked.sort,
      cursor: position.cursor,
      limit: position.limit,
    };
  }

  /**
   * Matches counted up to TOTAL_CAP + 1, and when they are few enough to gather, the page gathered
   * in the same statement (ListingSearchSql.countedGather): planned and read once, not twice.
   */
  private async countedGather(sql: ListingSearchSql, plan: SearchPlan): Promise<{ total: number; page?: RowsPage }> {
    const rows = await searchRows<ListingRow & { total: number }>(this.prepared, sql.countedGather(TOTAL_CAP, plan), false, 'replica');
    const total = rows[0]?.total ?? 0;
    if (total > GATHER_LIMIT) return { total };
    const page = rows.filter((row) => row.id !== null).map(({ total: _total, ...row }) => row);
    return { total, page: { rows: page, nextCursor: sql.nextCursor(page, { ...plan, kind: 'gather' }) } };
  }

  /** Matches counted up to TOTAL_CAP + 1. */
  private async count(sql: ListingSearchSql, plan: SearchPlan): Promise<number> {
    const [row] = await searchRows<{ total: number }>(this.prepared, sql.count(TOTAL_CAP, plan), sql.countPlanFixed(plan), 'replica');
    return row?.total ?? 0;
  }

  /**
   * Relevance ranks the newest RELEVANCE_WINDOW matches of several common words (one word is ranked
   * whole, from its postings); Load More then goes on with the older matches, newest first, so
   * every match can be reached. Their cursor says so (`afterRelevanceWindow` reads it back).
   */
  private async continuingCursor(
    sql: ListingSearchSql,
    plan: SearchPlan,
    pastWindow: boolean,
    next: string | null,
  ): Promise<string | null> {
    if (pastWindow) return next && encodeCursor([PAST_WINDOW, ...decodeCursor(next, 2)]);
    if (plan.kind !== 'newest' || next) return next;
    const [edge] = await searchRows<{ published_at: string; id: string }>(this.prepared, sql.windowEdge(plan), false, 'replica');
    return edge ? encodeCursor([PAST_WINDOW, edge.published_at, edge.id]) : null;
  }
}

/** Why a search's location names no place: a postcode that does not exist, or a place id not in the list. */
function unknownLocationText(location: string): string {
  const postcode = canonicalPostcode(location);
  return postcode ? `location: no such postcode or outcode, ${postcode}` : 'location must be a place id from the list';
}

/** A relevance search whose cursor has gone past the ranked window: the older matches, newest first. */
function afterRelevanceWindow(query: ListingQuery): { query: ListingQuery; pastWindow: boolean } {
  if (query.sort !== 'relevance' || !query.cursor) return { query, pastWindow: false };
  let values: unknown[];
  try {
    values = decodeCursor(query.cursor, 3);
  } catch {
    return { query, pastWindow: false }; // checked where it is used
  }
  // Otherwise a ranked page's cursor: rank, publication, id.
  if (values[0] !== PAST_WINDOW) return { query, pastWindow: false };
  return { query: { ...query, sort: 'newest', cursor: encodeCursor(values.slice(1)) }, pastWindow: true };
}
