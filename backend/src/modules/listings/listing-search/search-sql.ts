import { BadRequestException } from '@nestjs/common';
import type { SellerType } from '../../../contracts/trust.js';
import {
  boundsAround,
  cellRange,
  cellsWhollyWithin,
  cellsWithin,
  EARTH_RADIUS_METRES,
  GEO_CELL,
  MARGIN,
  MAX_WALKED_CELLS,
  METRES_PER_MILE,
  MILES_PER_DEGREE,
  rowsWithin,
  type Bounds,
} from '../geo-grid.js';
import { fieldEquals, fieldNumber, fieldValue, hasOwnIndex } from '../field-indexes.js';
import { decodeTypedCursor, encodeCursor, type CursorType } from '../../../common/keyset-pagination.js';
import type { CategorySlug } from '../../../contracts/categories.js';
import { PRICE_UNITS, type PriceUnit } from '../../../contracts/listing-display.js';
import {
  RADIUS_MILES_MAX,
  type ListingSort,
  type ListingStatus,
  type ListingType,
  type RentSubcategory,
} from '../../../contracts/listings.js';

/**
 * The listings a page is taken from, as the database knows them (a category's id, a place's
 * coordinates): a SearchQuery resolved (ListingSearch), or a list of cards (ListingCards). The words
 * searched for are the plan's (SearchPlan), since a spelling correction searches other words.
 */
export interface ListingQuery {
  categoryId?: number;
  rentSubcategory?: RentSubcategory;
  type?: ListingType;
  minPricePence?: number;
  maxPricePence?: number;
  /** The unit the price bounds are in (priceInUnit); absent: the listing's price as it stands, whatever its unit. */
  priceUnit?: PriceUnit;
  near?: { latitude: number; longitude: number };
  radiusMiles?: number;
  verifiedSellersOnly?: boolean;
  featuredOnly?: boolean;
  withImagesOnly?: boolean;
  postedWithinDays?: number;
  /** Per-category ranges on `attributes`, e.g. { key: 'hours', max: 3000 }. Keys come from the declared fields. */
  attributeRanges?: Array<{ key: string; min?: number; max?: number }>;
  /** Per-category matches on `attributes` (search-query's attributeMatches). */
  attributeMatches?: AttributeMatch[];
  sellerId?: string;
  /** Only these listings (a user's saved ones). */
  ids?: string[];
  statuses?: readonly ListingStatus[];
  sort: ListingSort;
  cursor?: string;
  limit: number;
}

/** A text, choice or yes-no equal to a value, a list of choices holding any of some, or a date within a range. */
export type AttributeMatch =
  { key: string; equals: string | boolean } | { key: string; anyOf: string[] } | { key: string; dateFrom: string; dateTo: string };

/**
 * How one search's rows are found, chosen by SearchPlanner before any page is read; every SQL of
 * the search (page, count, window edge, next cursor) follows it.
 */
export interface SearchPlan {
  /** The words searched for: the query's own, or what they were corrected to. */
  text?: string;
  /**
   * `walk` the sort's index, `gather` every match through the text or place index and sort them,
   * or rank only the `newest` matches. Default walk.
   */
  kind?: PlanKind;
  /** The matches, counted while planning (up to the count's cap + 1). */
  matches?: number;
  /**
   * A word every match contains (a stem of `text`, as full text makes it): matches are then found
   * through that word's postings (listing_term), newest first, instead of the GIN index.
   */
  lexeme?: string;
  /** The text is that one word: its postings are exactly the matches, and the text filter is left out. */
  lexemeOnly?: boolean;
}

export type PlanKind = 'walk' | 'gather' | 'newest';

/** The plan of a page without words (cards, or a browse that needs no planning): the sort's index, walked. */
export const WALK: SearchPlan = {};

/** Matches gathered at most (through the text or place index) and sorted. */
export const GATHER_LIMIT = 1_000;
/**
 * With more matches than that, relevance ranks the newest this many of several words (one word is
 * ranked whole, from its postings' index of rank). Finding them walks the
 * newest-first index past every listing that does not match: for a word in one listing in
 * thirty, 250 matches cost some 7,500 rows read (1,000 cost 30,000 and 160 ms at a million).
 */
export const RELEVANCE_WINDOW = 250;

/** One row of a listing as cards show it. */
export interface ListingRow {
  id: string;
  title: string;
  excerpt: string;
  price_pence: string;
  price_unit: string;
  /** The price per head, where the listing has one (priceInUnit). */
  price_per_head_pence: string | null;
  vat: string;
  type: ListingType;
  rent_subcategory: string | null;
  location_text: string;
  featured: boolean;
  views: number;
  saves_count: number;
  /** As PostgreSQL prints it: full microsecond precision, which a Date would lose (cursors need it). */
  published_at: string;
  expires_at: string;
  status: ListingStatus;
  category_slug: CategorySlug;
  category_name: string;
  seller_id: string;
  seller_name: string;
  seller_verified: boolean;
  seller_type: SellerType | null;
  /** The seller's shown reviews and their stars (kept on the account row by the reviews module). */
  seller_review_count: number;
  seller_review_stars: number;
  distance_m: string | null;
  rank: string | null;
  proximity: number | null;
  /** The images module's column (ListingImages.column), when asked for. */
  images?: unknown;
}

/** Whether the query asks for more than words and a place among live listings (a category, a price...). */
export function narrowed(query: ListingQuery): boolean {
  const filters = [
    query.categoryId,
    query.rentSubcategory,
    query.type,
    query.minPricePence,
    query.maxPricePence,
    query.postedWithinDays,
    query.sellerId,
    query.ids,
    query.statuses,
  ];
  return (
    filters.some((value) => value !== undefined) ||
    Boolean(query.verifiedSellersOnly || query.featuredOnly || query.withImagesOnly) ||
    (query.attributeRanges ?? []).length > 0 ||
    (query.attributeMatches ?? []).length > 0
  );
}

/**
 * Whether a word's postings hold this sort's values in an index of their own (publication, price:
 * listing_term's key and listing_term_by_price), so a walk of a word's postings in that order reads
 * only the word's listings. (Views change too often to be copied into every posting.)
 */
export function byPostingIndex(sort: ListingSort): boolean {
  return sort === 'newest' || sort === 'oldest' || sort === 'price-low' || sort === 'price-high';
}

/** A piece of SQL with the values its `?` placeholders bind, in order. */
export interface Fragment {
  sql: string;
  params: unknown[];
}

const fragment = (sql: string, ...params: unknown[]): Fragment => ({ sql, params });

function join(fragments: Fragment[], separator: string): Fragment {
  return { sql: fragments.map((f) => f.sql).join(separator), params: fragments.flatMap((f) => f.params) };
}

interface SortKey {
  /** What is sorted on (rounded where computed, so the cursor's value compares exactly). */
  expression: Fragment;
  /** The row's value of it, for the next cursor. */
  value: (row: ListingRow) => string | number;
  direction: 'asc' | 'desc';
  cast: CursorType;
}

/**
 * The SQL of one page of listings: filters, the keyset after the cursor, and the order (the id
 * breaks ties). Values are always bound; only fixed SQL text is put together.
 *
 * Plans. PostgreSQL guesses how many listings a word or a place matches, and for a rare word (a
 * typo) or a remote place it guesses high, walks the newest-first index hoping to meet matches
 * soon, and reads all million rows (seconds). SearchPlanner counts the matches first (bounded,
 * through the text or place index, milliseconds) and picks: few matches are gathered through that
 * index and sorted (`gather`); many are met soon by walking the sort's index (`walk`); ranking
 * several words by relevance ranks the newest RELEVANCE_WINDOW matches rather than every one
 * (`newest`). One word is walked from its postings' index, in rank or publication order.
 */
export class ListingSearchSql {
  /** The query's filters but the words and the radius (filtersOf adds them, in that order). */
  private readonly baseFilters: Fragment[] = [];
  private readonly distance: Fragment | undefined;
  /** Straight-line distance through the earth, which the place index can order by (nearest first). */
  private readonly proximity: Fragment | undefined;
  /** Distance along the earth's surface, in metres: what a radius keeps to and nearest first sorts by. */
  private readonly arc: Fragment | undefined;
  /** The radius's filters (the last of filtersOf). */
  private readonly placeFilters: Fragment[] = [];
  /** The radius's filters on a word's postings `t` (postingFilters). */
  private readonly postingPlace: Fragment[] = [];
  /** The grid squares within the radius (cellsWithin), when few enough to search square by square. */
  private readonly cells: number[] | undefined;
  /** The radius's box of latitudes and longitudes (boundsAround). */
  private readonly bounds: Bounds | undefined;

  /** `imagesColumn`: SQL of a column to add to each row of a page (the images module's). */
  constructor(
    private readonly query: ListingQuery,
    private readonly imagesColumn?: string,
  ) {
    const statuses = query.statuses ?? ['live'];
    this.baseFilters.push(fragment(`l.status in (${statuses.map(() => '?').join(', ')})`, ...statuses));
    if (query.sellerId) this.baseFilters.push(fragment('l.seller_id = ?', query.sellerId));
    if (query.ids) this.baseFilters.push(fragment(`l.id in (${query.ids.map(() => '?::uuid').join(', ') || 'null'})`, ...query.ids));
    if (query.categoryId !== undefined) this.baseFilters.push(fragment('l.category_id = ?', query.categoryId));
    if (query.rentSubcategory) this.baseFilters.push(fragment('l.rent_subcategory = ?', query.rentSubcategory));
    if (query.type) this.baseFilters.push(fragment('l.type = ?', query.type));
    // Per head as listing_price_per_head_index holds it (those without a price per head beyond any
    // bound), so a bound is a range of that index; other units are checked row by row.
    const price =
      query.priceUnit === 'per-head'
        ? fragment(PRICE_PER_HEAD_SORTED)
        : query.priceUnit
          ? priceInUnit(query.priceUnit)
          : fragment('l.price_pence');
    if (query.minPricePence !== undefined) this.baseFilters.push(fragment(`${price.sql} >= ?`, ...price.params, query.minPricePence));
    if (query.maxPricePence !== undefined) this.baseFilters.push(fragment(`${price.sql} <= ?`, ...price.params, query.maxPricePence));
    if (query.priceUnit === 'per-head' && query.minPricePence !== undefined)
      this.baseFilters.push(fragment(`${PRICE_PER_HEAD_SORTED} < ${NO_PRICE_PER_HEAD}`));
    if (query.verifiedSellersOnly) this.baseFilters.push(fragment('u.business_verified_at is not null'));
    if (query.featuredOnly) this.baseFilters.push(fragment('l.featured'));
    // The one place listings read the images module's table: "has a ready photo" as an EXISTS keeps
    // the home grid's fallback one indexed query (the ListingImages port answers per listing).
    if (query.withImagesOnly)
      this.baseFilters.push(fragment(`exists (select 1 from image i where i.listing_id = l.id and i.status = 'ready')`));
    if (query.postedWithinDays)
      this.baseFilters.push(fragment('l.published_at >= now() - make_interval(days => ?::integer)', query.postedWithinDays));
    // Each field's value as the index plan declares it (field-indexes.ts), its key written into the
    // SQL: so even a generic plan finds the field's own index and statistics.
    for (const range of query.attributeRanges ?? []) {
      if (range.min !== undefined) this.baseFilters.push(fragment(`${fieldNumber(range.key, 'l')} >= ?`, range.min));
      if (range.max !== undefined) this.baseFilters.push(fragment(`${fieldNumber(range.key, 'l')} <= ?`, range.max));
    }
    for (const match of query.attributeMatches ?? []) {
      // Text against text (a yes-no as 'true' / 'false'); a choice written into the SQL (fieldEquals).
      if ('equals' in match) this.baseFilters.push(fieldEquals(match.key, String(match.equals), 'l'));
      // Has any of them: a list holding one of them, each through that choice's index.
      else if ('anyOf' in match)
        this.baseFilters.push(
          join(
            match.anyOf.map((option) => fieldEquals(match.key, option, 'l', true)),
            ' or ',
          ),
        );
      else this.baseFilters.push(fragment(`${fieldValue(match.key, 'l')} between ? and ?`, match.dateFrom, match.dateTo));
    }
    if (query.near) {
      const { latitude, longitude } = query.near;
      this.proximity = fragment(`(ll_to_earth(l.latitude, l.longitude) <-> ll_to_earth(?, ?))`, latitude, longitude);
      // Plain arithmetic on the coordinates (the grid index holds them): the great-circle distance on
      // earthdistance's sphere. ll_to_earth per row cost 10 µs.
      // What depends only on the centre is worked out here: a prepared statement's generic plan
      // would work it out again for every row.
      this.arc = fragment(arcMetresSql('?::float8', '?::float8', '?::float8'), latitude, centreCosine(latitude), longitude);
      // What the cards show: the same sum, where earth_distance cost two ll_to_earth calls a row.
      this.distance = fragment(`round(${this.arc.sql}::numeric, 1)`, ...this.arc.params);
      if (query.radiusMiles) {
        const metres = query.radiusMiles * METRES_PER_MILE;
        const bounds = boundsAround(latitude, longitude, query.radiusMiles);
        this.bounds = bounds;
        // Listings given by id (a wanted ad's search asked of one listing) are found by id: no squares to walk.
        this.cells = bounds && !query.ids ? cellsWithin(latitude, longitude, query.radiusMiles, bounds) : undefined;
        // A box first (cheap comparisons), then the distance.
        if (bounds) {
          this.placeFilters.push(
            fragment('l.latitude between ? and ? and l.longitude between ? and ?', bounds.south, bounds.north, bounds.west, bounds.east),
          );
          // Too many squares to list: the box's range of them, so that the grid index is read from the
          // box's first row (a price range within 250 miles of a northern town read 420,000 entries south of the box first).
          // Not nearest first, found through the place index: with the range, its generic plan read the
          // grid index over the range instead (0.3 s for the nearest within 250 miles).
          if (!this.cells && query.sort !== 'nearest') {
            const { low, high } = cellRange(bounds);
            this.placeFilters.push(fragment('l.geo_cell between ? and ?', low, high));
          }
        }
        this.placeFilters.push(fragment(`${this.arc.sql} <= ?`, ...this.arc.params, metres));
        // The same place on a word's postings (which hold the coordinates and grid square): its squares, then the distance.
        const postingArc = arcMetresSql('?::float8', '?::float8', '?::float8', 't');
        if (this.cells) this.postingPlace.push(fragment('t.geo_cell = any(array[?]::integer[])', this.cells));
        else if (bounds)
          this.postingPlace.push(
            fragment('t.latitude between ? and ? and t.longitude between ? and ?', bounds.south, bounds.north, bounds.west, bounds.east),
          );
        this.postingPlace.push(fragment(`${postingArc} <= ?`, latitude, centreCosine(latitude), longitude, metres));
      }
    }
  }

  /** Every filter of the search under this plan: the query's, the words', then the radius's. */
  private filtersOf(plan: SearchPlan): Fragment[] {
    const words: Fragment[] = [];
    if (plan.lexeme) words.push(fragment('t.lexeme = ?', plan.lexeme), ...this.postingFilters(plan));
    // (Repeating what the postings already say would make PostgreSQL count the word twice and expect one row.)
    if (plan.text && !(plan.lexeme && plan.lexemeOnly))
      words.push(fragment(`l.search_vector @@ websearch_to_tsquery('english', ?)`, plan.text));
    return [...this.baseFilters, ...words, ...this.placeFilters];
  }

  /**
   * The filters of a page on a word's postings `t` as well, so that they are read from the postings'
   * index over that range only: when the postings are all read (gathered), every filter they hold
   * (postingConditions); when walked, the one in that walk's order (a price range by price, a date
   * newest or oldest first). Not one in another order: a generic plan, not knowing how much of the
   * word the range holds, would read the word's postings in the range and sort them all (0.2 s for
   * "wheat" between £200 and £1,000 by relevance).
   */
  private postingFilters(plan: SearchPlan): Fragment[] {
    const { price, date, place, category } = this.postingParts();
    if ((plan.kind ?? 'walk') !== 'walk') return [...price, ...date, ...place, ...category];
    const { sort } = this.query;
    return [...(sort === 'price-low' || sort === 'price-high' ? price : []), ...(sort === 'newest' || sort === 'oldest' ? date : [])];
  }

  /**
   * The search's filters beside its words as conditions on a word's postings `t`, when the postings
   * hold them all (ListingWords.countTogether counts from them): a price range as listed (in no
   * other unit), a publication date, a radius, and within a radius the category (the postings'
   * index by grid square holds it). `readBy`: the postings' index they are best read through.
   * Undefined when there are none, or another filter needs the listing itself.
   */
  postingConditions(): { where: Fragment[]; readBy: 'price' | 'place' | 'publication' } | undefined {
    // Everything else must be unasked.
    const {
      minPricePence: _min,
      maxPricePence: _max,
      postedWithinDays: _days,
      near: _near,
      radiusMiles: _radius,
      priceUnit,
      categoryId,
      ...rest
    } = this.query;
    const { price, date, place, category } = this.postingParts();
    const held = !priceUnit && (categoryId === undefined || place.length > 0) && !narrowed(rest);
    const where = [...price, ...date, ...place, ...category];
    if (!held || where.length === 0) return undefined;
    return { where, readBy: place.length > 0 ? 'place' : price.length > 0 ? 'price' : 'publication' };
  }

  /** The filters a word's postings hold, each on `t`: the category only within a radius (postingConditions). */
  private postingParts(): Record<'price' | 'date' | 'place' | 'category', Fragment[]> {
    const { minPricePence, maxPricePence, priceUnit, postedWithinDays, categoryId } = this.query;
    const place = this.postingPlace;
    return {
      price: priceUnit
        ? []
        : [
            ...(minPricePence === undefined ? [] : [fragment('t.price_pence >= ?', minPricePence)]),
            ...(maxPricePence === undefined ? [] : [fragment('t.price_pence <= ?', maxPricePence)]),
          ],
      date: postedWithinDays ? [fragment('t.published_at >= now() - make_interval(days => ?::integer)', postedWithinDays)] : [],
      place,
      category: categoryId !== undefined && place.length > 0 ? [fragment('t.category_id = ?', categoryId)] : [],
    };
  }

  /**
   * Every filter of a page, the words `text` among them, as one condition on a listing `l` (and its
   * seller `u` when `seller`): what reverse search asks of a new listing (ListingSearch.finding).
   */
  test(text: string | undefined): { where: Fragment; seller: boolean } {
    return { where: whereOf(this.filtersOf({ text })), seller: Boolean(this.query.verifiedSellersOnly) };
  }

  /** How well a listing matches the words (relevance). */
  private rankOf(plan: SearchPlan): Fragment | undefined {
    if (!plan.text) return undefined;
    // One word's postings carry the listing's rank for that word (listing_term_rank: the same sum).
    return this.rankedByPostings(plan)
      ? fragment('t.rank')
      : fragment(`round(ts_rank_cd(l.search_vector, websearch_to_tsquery('english', ?), 1)::numeric, 6)`, plan.text);
  }

  /**
   * Whether a one-word search is ranked straight from that word's postings, by their index of rank
   * and publication: every match ranked, a page read from the index's top.
   */
  private rankedByPostings({ lexeme, lexemeOnly, kind }: SearchPlan): boolean {
    return lexeme !== undefined && Boolean(lexemeOnly) && this.query.sort === 'relevance' && (kind ?? 'walk') === 'walk';
  }

  private sortKeys(plan: SearchPlan): SortKey[] {
    const byId = (direction: 'asc' | 'desc'): SortKey => ({ expression: fragment('l.id'), value: (r) => r.id, direction, cast: 'uuid' });
    const column = (name: string, cast: CursorType, value: SortKey['value'], direction: 'asc' | 'desc'): SortKey[] => [
      { expression: fragment(name), value, direction, cast },
      byId(direction),
    ];
    // A walk through a word's postings follows their index: the same values, read from the posting.
    const postings = plan.lexeme !== undefined && (plan.kind ?? 'walk') === 'walk';
    const byPosting = (
      name: 'published_at' | 'price_pence',
      cast: CursorType,
      value: SortKey['value'],
      direction: 'asc' | 'desc',
    ): SortKey[] =>
      postings
        ? [
            { expression: fragment(`t.${name}`), value, direction, cast },
            { expression: fragment('t.listing_id'), value: (r) => r.id, direction, cast: 'uuid' },
          ]
        : column(`l.${name}`, cast, value, direction);
    const byPublication = (direction: 'asc' | 'desc'): SortKey[] =>
      byPosting('published_at', 'timestamptz', (r) => r.published_at, direction);
    const byPrice = (direction: 'asc' | 'desc'): SortKey[] => byPosting('price_pence', 'bigint', (r) => Number(r.price_pence), direction);
    switch (this.query.sort) {
      case 'newest':
        return byPublication('desc');
      case 'oldest':
        return byPublication('asc');
      case 'price-low':
        return byPrice('asc');
      case 'price-high':
        return byPrice('desc');
      case 'popular':
        return column('l.views', 'integer', (r) => r.views, 'desc');
      case 'price-per-head':
        // As listing_price_per_head_index holds it, so a page is read from the index's top.
        return column(PRICE_PER_HEAD_SORTED, 'bigint', (r) => Number(r.price_per_head_pence ?? NO_PRICE_PER_HEAD), 'asc');
      case 'nearest':
        if (!this.arc) throw new BadRequestException('Sorting by distance needs a location.');
        return [{ expression: this.arc, value: (r) => Number(r.proximity), direction: 'asc', cast: 'float8' }, byId('asc')];
      case 'relevance': {
        // Most relevant first, the newest first among equals.
        const rank = this.rankOf(plan);
        if (!rank) throw new BadRequestException('Sorting by relevance needs words to search for.');
        return [{ expression: rank, value: (r) => String(r.rank), direction: 'desc', cast: 'numeric' }, ...byPublication('desc')];
      }
    }
  }

  /**
   * Whether a walk's cost is bounded whatever the number of matches, so that it needs no count
   * first: newest or oldest within a radius of few grid squares (each square walked for one page).
   * (Nearest first is not: with few listings within the radius, the nearest-first scan of the place
   * index would go on past it; given the box too, PostgreSQL sorts the whole box instead.)
   */
  boundedWalk(plan: SearchPlan): boolean {
    const { sort, radiusMiles } = this.query;
    if (!radiusMiles || plan.text) return false;
    const squares = (sort === 'newest' || sort === 'oldest') && this.cells !== undefined && this.cells.length <= MAX_WALKED_CELLS;
    // A farm value's squares are walked in its own index (byIndexedValue): only its listings are read.
    if (this.byIndexedValue()) return squares;
    // Other filters could leave few matches among many rows walked.
    if (narrowed(this.query)) return false;
    return sort === 'nearest' || squares;
  }

  /**
   * Whether nearest first meets a page soon by the place index alone, whatever the matches number,
   * so it needs no count to be planned (when none is shown): no words, and no filter but the kind of
   * listing (category, rental subcategory, buy or rent), each a good share of all listings, which the
   * nearest-first scan checks on the listings it hands out. A price or a farm value could match none
   * near, and the scan would then read every listing.
   */
  nearestWalkBounded(): boolean {
    const { sort, categoryId: _category, rentSubcategory: _subcategory, type: _type, ...rest } = this.query;
    return sort === 'nearest' && this.proximity !== undefined && !narrowed({ ...rest, sort });
  }

  /**
   * Whether a radius is narrowed by its category and one farm value with an index of its own by
   * grid square (field-indexes.ts: "TB free" within 25 miles), and nothing else: that index then
   * counts and walks the radius square by square, reading the value's listings only, under any
   * plan (the value is written into the SQL, fieldEquals, so a generic plan can use the partial index).
   */
  private byIndexedValue(): boolean {
    const { categoryId, attributeMatches, ...rest } = this.query;
    const [match, ...others] = attributeMatches ?? [];
    if (categoryId === undefined || !match || others.length > 0 || !('equals' in match)) return false;
    return hasOwnIndex(match.key, String(match.equals)) && !narrowed(rest);
  }

  /**
   * Whether the page's SQL fixes its own plan, whatever its values (PreparedQueries): nearest
   * first, a radius walked square by square, or a word's postings walked in their index's order.
   * Not a radius walked with farm fields asked for, but for one value with its own index of grid
   * squares (byIndexedValue): with the value bound, a generic plan could not use that partial index
   * and read the squares' listings from the table (16 ms for "TB free within 25 miles", against 2);
   * with the value written into the SQL it can.
   */
  pagePlanFixed(plan: SearchPlan): boolean {
    if ((plan.kind ?? 'walk') !== 'walk') return false;
    if (this.query.sort === 'nearest') return this.proximity !== undefined;
    if (plan.lexeme !== undefined) return byPostingIndex(this.query.sort) || this.rankedByPostings(plan);
    const valueIndexed = (this.query.attributeMatches ?? []).length > 0 && !this.byIndexedValue();
    return this.walksCells(plan) && (this.query.sort === 'newest' || this.query.sort === 'oldest') && !valueIndexed;
  }

  /**
   * Whether the count's SQL fixes its own plan: a radius counted square by square, or row by row.
   * With other filters the count is planned for their values: a price range or a category may hold
   * fewer listings than the radius (then its own index counts them soonest) or many more (then the
   * grid's), which a generic plan cannot tell apart. But for one farm value with its own index of
   * grid squares (byIndexedValue): that index counts the radius's squares for the value alone.
   */
  countPlanFixed(plan: SearchPlan): boolean {
    return Boolean(this.cells || this.bounds) && !plan.text && (!narrowed(this.query) || this.byIndexedValue() || this.wideByCategory());
  }

  /**
   * Whether a radius too wide to walk square by square is narrowed by its category alone: the grid
   * index holds each listing's category, so its squares count the category's matches from the index
   * alone, nearest first, a good share of each square's entries matching (as nearestWalkBounded
   * assumes of a category). Counted through the category's own index instead, PostgreSQL read all of
   * a category's listings into a bitmap and then their rows for the distance ("livestock within 250
   * miles by views").
   */
  private wideByCategory(): boolean {
    const { categoryId, ...rest } = this.query;
    const wide = this.cells === undefined || this.cells.length > MAX_WALKED_CELLS;
    return categoryId !== undefined && wide && !narrowed(rest);
  }

  private walksCells(plan: SearchPlan): boolean {
    return this.cells !== undefined && this.cells.length <= MAX_WALKED_CELLS && !plan.lexeme;
  }

  /**
   * A first try at gathering (SearchPlanner, in place of its count): the matches up to `cap` + 1,
   * read once, give both the count and, when there are no more than GATHER_LIMIT (gathered, as
   * `page` would under a `gather` plan), the page, in one statement planned once. Beyond that no
   * page is picked (the planner walks instead). Each row has `total`; with no page, one row of `total` alone.
   */
  countedGather(cap: number, plan: SearchPlan): Fragment {
    const keys = this.sortKeys(plan);
    const values = this.sortValues(keys);
    const matches = whereOf(this.matchFilters(plan));
    const gathered = `(select count(*) from counted) <= ${checkedCount(GATHER_LIMIT)}`;
    // A radius without words is counted through the grid squares' index, which holds every sort's
    // values but relevance and the price per head: they are read with the count, from the index.
    if (this.sortValuesInGridIndex(plan, keys)) {
      return this.pickedPage(keys, this.pageColumns(plan), fragment(`select * from counted where ${gathered}`), {
        prefix: fragment(
          `with counted as materialized (select l.id, ${values.sql} from ${this.listings(plan)} where ${matches.sql} ${limitOf(cap + 1)})`,
          ...values.params,
          ...matches.params,
        ),
        keyset: true,
        total: '(select count(*)::int from counted)',
      });
    }
    // Counted by id alone (an index can answer), so that more matches than are gathered cost no
    // reads of their rows; their sort values only when they are gathered.
    const counted = fragment(
      `with counted as materialized (select l.id from ${this.listings(plan)} where ${matches.sql} ${limitOf(cap + 1)})`,
      ...matches.params,
    );
    const candidates = fragment(
      `select l.id, ${values.sql} from listing l where l.id = any(array(select id from counted)) and ${gathered}`,
      ...values.params,
    );
    return this.pickedPage(keys, this.pageColumns(plan), candidates, {
      prefix: counted,
      keyset: true,
      total: '(select count(*)::int from counted)',
    });
  }

  /**
   * Whether a search is counted through the grid squares' index (a radius of few enough squares, no
   * words) and its sort's values are among that index's columns (listing_geo_cell_index: publication,
   * id, coordinates, category, price, views).
   */
  private sortValuesInGridIndex(plan: SearchPlan, keys: SortKey[]): boolean {
    const indexed = ['l.published_at', 'l.id', 'l.price_pence', 'l.views'];
    return (
      this.cells !== undefined &&
      !plan.text &&
      !plan.lexeme &&
      keys.every((key) => key.expression === this.arc || indexed.includes(key.expression.sql))
    );
  }

  /**
   * Whether every match of a radius of few enough grid squares to list can be gathered from the grid
   * index alone, however many: no words, no filter but those the index holds (a category, a price as
   * listed, a date), in an order it holds (newest, oldest, by price, by views). The gathering reads
   * the radius's entries (gridEntries says how many), where a walk of the sort's index reads until a
   * page of matches (far past it when the matches are a small share of all listings: a price range in
   * a category within 50 miles by views read 30,000 rows, 0.1-0.7 s at a million; a remote town within
   * 10 miles by price, 0.3 s).
   */
  gathersFromGrid(plan: SearchPlan): boolean {
    const {
      categoryId: _category,
      minPricePence: _min,
      maxPricePence: _max,
      postedWithinDays: _days,
      priceUnit,
      sort,
      ...rest
    } = this.query;
    return (
      this.cells !== undefined &&
      this.cells.length <= MAX_WALKED_CELLS &&
      !plan.text &&
      !priceUnit &&
      sort !== 'nearest' &&
      !narrowed({ ...rest, sort }) &&
      this.sortValuesInGridIndex(plan, this.sortKeys(plan))
    );
  }

  /** The live listings in the radius's grid squares (not only those within it), counted up to `cap` + 1 from the grid index. */
  gridEntries(cap: number): Fragment {
    return fragment(
      `select count(*)::int as total from (select 1 from listing l where l.status = 'live' and l.geo_cell = any(array[?]::integer[]) ${limitOf(cap + 1)}) entries`,
      this.cells ?? [],
    );
  }

  /**
   * Where a gathered page's matches are read from: for a gathering from the grid index (gathersFromGrid),
   * the radius's squares' entries with the columns that index holds, behind a fence (`offset 0`), so
   * that PostgreSQL reads that index alone and not, misjudging how many a category's price range
   * holds, that range's rows.
   */
  private gatheredFrom(plan: SearchPlan): Fragment {
    if (!this.gathersFromGrid(plan)) return fragment(this.listings(plan));
    return fragment(
      `(select l.id, l.status, l.geo_cell, l.published_at, l.latitude, l.longitude, l.category_id, l.price_pence, l.views
        from listing l where l.status = 'live' and l.geo_cell = any(array[?]::integer[]) offset 0) l`,
      this.cells,
    );
  }

  /** The columns of a page's rows (ListingRow). */
  private pageColumns(plan: SearchPlan): Fragment {
    const rank = this.rankOf(plan);
    return join(
      [
        fragment(SELECT),
        this.distance ? fragment(`${this.distance.sql} as distance_m`, ...this.distance.params) : fragment('null as distance_m'),
        rank ? fragment(`${rank.sql} as rank`, ...rank.params) : fragment('null as rank'),
        this.arc ? fragment(`${this.arc.sql} as proximity`, ...this.arc.params) : fragment('null as proximity'),
        ...(this.imagesColumn ? [fragment(`${this.imagesColumn} as images`)] : []),
      ],
      ', ',
    );
  }

  /** One page: a row more than the limit, to know whether another page follows. */
  page(plan: SearchPlan): Fragment {
    const keys = this.sortKeys(plan);
    const filters = this.filtersOf(plan);
    if (this.query.cursor) {
      filters.push(this.afterCursor(keys));
    }
    const columns = this.pageColumns(plan);
    const orderBy = join(
      keys.map((key) => fragment(`${key.expression.sql} ${key.direction}`, ...key.expression.params)),
      ', ',
    );
    const kind = plan.kind ?? 'walk';
    if (kind === 'walk' && this.query.sort === 'nearest' && this.proximity) {
      // Every listing within the page's reach (often a town's many at one spot), then the page of them.
      const reached = this.foundByPlace(plan, this.withinEdge());
      const within = whereOf([...filters, ...reached.where]);
      return this.pickedPage(
        keys,
        columns,
        fragment(
          `select l.id, ${this.sortValues(keys).sql} from ${reached.source.sql} where ${within.sql}`,
          ...this.sortValues(keys).params,
          ...reached.source.params,
          ...within.params,
        ),
        {
          prefix: this.nearestEdge(filters, plan),
          keyset: false,
        },
      );
    }
    if (kind === 'walk' && this.walksCells(plan) && (this.query.sort === 'newest' || this.query.sort === 'oldest')) {
      return prefixSelect(
        this.cellWalk(filters, orderBy, plan),
        'listing l',
        columns,
        fragment('true'),
        orderBy,
        this.query.limit + 1,
        'join near m on m.id = l.id',
      );
    }
    if (kind === 'walk') return prefixSelect(fragment(''), this.source(plan), columns, whereOf(filters), orderBy, this.query.limit + 1);
    const matches = whereOf(this.matchFilters(plan));
    const values = this.sortValues(keys);
    // Gathered: every match; else relevance's window of the newest matches.
    const source = kind === 'gather' ? this.gatheredFrom(plan) : fragment(this.listings(plan));
    const window = kind === 'gather' ? '' : ` order by ${this.newestOrder(plan)} ${limitOf(RELEVANCE_WINDOW)}`;
    const candidates = fragment(
      `select l.id, ${values.sql} from ${source.sql} where ${matches.sql}${window}`,
      ...values.params,
      ...source.params,
      ...matches.params,
    );
    return this.pickedPage(keys, columns, candidates, { prefix: fragment(''), keyset: true });
  }

  /** Refuses (400) a cursor that is not one of this sort's, as paging with it would. */
  checkCursor(plan: SearchPlan): void {
    if (this.query.cursor) this.afterCursor(this.sortKeys(plan));
  }

  /** The rows after the query's cursor in the order of `keys`, its values checked for their kinds first. */
  private afterCursor(keys: SortKey[]): Fragment {
    const casts = keys.map((key) => key.cast);
    return keysetAfter(keys, decodeTypedCursor(this.query.cursor as string, casts));
  }

  /** The sort's values of a row, named k0, k1... (pickedPage). */
  private sortValues(keys: SortKey[]): Fragment {
    return join(
      keys.map((key, i) => fragment(`${key.expression.sql} as k${i}`, ...key.expression.params)),
      ', ',
    );
  }

  /**
   * A page picked from candidate rows that carry their sort values (sortValues): the candidates
   * come first, as a fence the planner cannot see through (found through the text, place or grid
   * index), the page is picked from them (after the cursor, when `keyset`), and only its rows are
   * joined to their category and seller. `prefix` opens the WITH list for CTEs the candidates use.
   */
  private pickedPage(
    keys: SortKey[],
    columns: Fragment,
    candidates: Fragment,
    options: { prefix: Fragment; keyset: boolean; total?: string },
  ): Fragment {
    const picked = keys.map((key, i): SortKey => ({ ...key, expression: fragment(`m.k${i}`) }));
    const keyset = options.keyset && this.query.cursor ? whereOf([this.afterCursor(picked)]) : fragment('true');
    const order = picked.map((key) => `${key.expression.sql} ${key.direction}`).join(', ');
    const opening = options.prefix.sql ? `${options.prefix.sql}, ` : 'with ';
    const prefix = fragment(
      `${opening}matches as materialized (${candidates.sql}),
          page as (select m.id, ${picked.map((key) => key.expression.sql).join(', ')} from matches m where ${keyset.sql} order by ${order} ${limitOf(this.query.limit + 1)}) `,
      ...options.prefix.params,
      ...candidates.params,
      ...keyset.params,
    );
    if (options.total === undefined) {
      return prefixSelect(
        prefix,
        'listing l',
        columns,
        fragment('true'),
        fragment(order),
        this.query.limit + 1,
        'join page m on m.id = l.id',
      );
    }
    // The total beside the page's rows, and alone when there are none.
    const rows = prefixSelect(
      fragment(''),
      'listing l',
      columns,
      fragment('true'),
      fragment(order),
      this.query.limit + 1,
      'join page m on m.id = l.id',
    );
    return fragment(
      `${prefix.sql}select matched.total, p.* from (select ${options.total} as total) matched left join lateral (${rows.sql}) p on true`,
      ...prefix.params,
      ...rows.params,
    );
  }

  /**
   * Nearest first, in two steps. The place index hands out listings nearest first (a KNN scan),
   * but only when distance is the whole order, and the order also needs the id, for the many
   * listings of one farm or town at one distance. So the scan finds how far the page reaches (the
   * distance of its last row, or the radius if that is nearer), and the page is then every match
   * within that reach, sorted by distance and id: a few dozen rows however many listings there are.
   * The scan leaves the radius out, so it ends after a page of rows even where few listings lie
   * within it (given the radius, PostgreSQL would go on to the ends of the earth looking for more).
   * The reach's grid squares find the page's rows from the grid index (`reach_cells`).
   */
  private nearestEdge(filters: Fragment[], plan: SearchPlan): Fragment {
    const proximity = this.proximity as Fragment;
    const arc = this.arc as Fragment;
    // The filters are checked on each listing the place index hands out, never searched through
    // their own indexes, as one `case` that no index answers and that PostgreSQL guesses keeps half
    // the listings. A generic plan cannot tell how many listings a price range or a word matches (it
    // guesses a few hundred), so it would find them all through the price or text index and sort
    // them, rather than meet them nearest first and stop after a page (6.5 s for Taunton within 25
    // miles between £5,000 and £50,000 at a million). Each filter apart under `is true` kept them from
    // the indexes but not that guess: a Load More page (the cursor's distance among the filters) of
    // a word within 100 miles then read every live listing and sorted them (0.8 s at 100,000).
    // (The planner only walks nearest first when more than GATHER_LIMIT listings match.)
    const [status] = this.baseFilters;
    const checked = whereOf(filters.filter((filter) => filter !== status && !this.placeFilters.includes(filter)));
    const where = checked.sql
      ? whereOf([status as Fragment, fragment(`case when ${checked.sql} then true else false end`, ...checked.params)])
      : whereOf([status as Fragment]);
    const radius = (this.query.radiusMiles ?? RADIUS_MILES_MAX) * METRES_PER_MILE;
    const edgeRows = checkedCount(this.query.limit + 1);
    const edge = fragment(
      `with edge as materialized (select case when count(*) < ? then ? else least(max(a), ?) end as reach
        from (select ${arc.sql} as a from ${this.listings(plan)} where ${where.sql} order by ${proximity.sql} ${limitOf(edgeRows)}) nearest)`,
      edgeRows,
      radius,
      radius,
      ...arc.params,
      ...where.params,
      ...proximity.params,
    );
    if (!this.cells) return fragment(`${edge.sql} `, ...edge.params);
    const { latitude, longitude } = this.query.near as { latitude: number; longitude: number };
    const { latitudeDegrees: height, longitudeDegrees: width } = GEO_CELL;
    const { latitude: perLatitude, longitudeAtEquator: perLongitude } = MILES_PER_DEGREE;
    // The reach's box, as boundsAround makes it, then its grid squares.
    return fragment(
      `${edge.sql},
        reach_box as materialized (select ? - dlat as south, ? + dlat as north,
            ? - dlat * ${perLatitude} / (${perLongitude} * cos(radians(least(89, abs(?::float8) + dlat)))) as west,
            ? + dlat * ${perLatitude} / (${perLongitude} * cos(radians(least(89, abs(?::float8) + dlat)))) as east
          from (select (select reach from edge) / ? / ${perLatitude} * ${MARGIN} as dlat) d),
        reach_cells as materialized (select array(select r * ${GEO_CELL.rowStride} + c from reach_box b,
            generate_series(floor((b.south + 90) / ${height})::integer, floor((b.north + 90) / ${height})::integer) r,
            generate_series(floor((b.west + 180) / ${width})::integer, floor((b.east + 180) / ${width})::integer) c) as list) `,
      ...edge.params,
      latitude,
      latitude,
      longitude,
      latitude,
      longitude,
      latitude,
      METRES_PER_MILE,
    );
  }

  /**
   * Newest (or oldest) first within a radius, square by square: each square's page from the grid
   * index (which holds the coordinates, so the distance needs no table row), then the squares'
   * pages merged. A few hundred index entries however many listings the place has; walking the
   * whole newest-first index met the radius's listings one in fifty.
   *
   * The squares wholly inside the circle go first (`bar`): the page's last listing among them is a
   * bar no listing of the page can fall behind, so every square is then read only up to it (at the
   * circle's edge, a square's first page could be many entries away past the listings outside).
   */
  private cellWalk(filters: Fragment[], orderBy: Fragment, plan: SearchPlan): Fragment {
    const where = whereOf(filters);
    const [direction, last, beyond, within] =
      this.query.sort === 'oldest' ? ['asc', 'max', 'infinity', '<='] : ['desc', 'min', '-infinity', '>='];
    const inside = this.cellsInside();
    const pageOf = (cells: number[], bar: string) =>
      fragment(
        `select x.id, x.published_at from unnest(array[?]::integer[]) as g(cell) cross join lateral (
          select l.id, l.published_at from ${this.listings(plan)} where l.geo_cell = g.cell and ${where.sql}${bar} order by ${orderBy.sql} ${limitOf(this.query.limit + 1)}) x
          order by x.published_at ${direction}, x.id ${direction} ${limitOf(this.query.limit + 1)}`,
        cells,
        ...where.params,
        ...orderBy.params,
      );
    if (inside.length === 0) {
      const page = pageOf(this.cells as number[], '');
      return fragment(`with near as materialized (${page.sql}) `, ...page.params);
    }
    const first = pageOf(inside, '');
    const whole = pageOf(this.cells as number[], ` and l.published_at ${within} (select at from bar)`);
    return fragment(
      `with bar as materialized (select case when count(*) <= ? then '${beyond}'::timestamptz else ${last}(p.published_at) end as at
          from (${first.sql}) p),
        near as materialized (${whole.sql}) `,
      this.query.limit,
      ...first.params,
      ...whole.params,
    );
  }

  /** The radius's grid squares lying wholly inside its circle, nearest first. */
  private cellsInside(): number[] {
    if (!this.cells || !this.query.near || !this.query.radiusMiles) return [];
    const { latitude, longitude } = this.query.near;
    return cellsWhollyWithin(latitude, longitude, this.query.radiusMiles, this.cells);
  }

  /** Within the page's reach: its grid squares (or a box through the place index), then exactly. */
  private withinEdge(): Fragment {
    const arc = this.arc as Fragment;
    if (this.cells) {
      return fragment(
        `l.geo_cell = any((select list from reach_cells)::integer[]) and ${arc.sql} <= (select reach from edge)`,
        ...arc.params,
      );
    }
    const { latitude, longitude } = this.query.near as { latitude: number; longitude: number };
    return fragment(
      `earth_box(ll_to_earth(?, ?), (select reach from edge) * 1.001 + 1) @> ll_to_earth(l.latitude, l.longitude)
        and ${arc.sql} <= (select reach from edge)`,
      latitude,
      longitude,
      ...arc.params,
    );
  }

  /** Where relevance's window of the newest matches ends: its oldest match (newest-first keyset values). */
  windowEdge(plan: SearchPlan): Fragment {
    const where = whereOf(this.matchFilters(plan));
    return fragment(
      `select l.published_at, l.id from ${this.listings(plan)} where ${where.sql}
        order by ${this.newestOrder(plan)} offset ${checkedCount(RELEVANCE_WINDOW - 1)} limit 1`,
      ...where.params,
    );
  }

  /** Matches counted up to `cap` + 1 (a browse shows "1,000+" beyond), for the first page only. */
  count(cap: number, plan: SearchPlan): Fragment {
    const filters = this.filtersOf(plan);
    // Square by square, or for a wide radius row of squares by row, nearest first: the squares
    // wholly inside the radius reach the cap soonest. (Through the grid index at once, squares come
    // in numeric order, from the south: round Lerwick, 555,000 entries read for 500 miles.) The
    // `offset 0` keeps each square's lookup apart, so PostgreSQL cannot turn the order round.
    // The squares wholly inside need no test of distance: they come first, without it.
    if (this.countPlanFixed(plan)) {
      const lookup = ([squares, match]: [Fragment, string], filters: Fragment[]) => {
        const where = whereOf(filters);
        return fragment(
          `(select 1 from ${squares.sql} cross join lateral (select 1 from ${this.listings(plan)} where ${match} and ${where.sql} offset 0) x)`,
          ...squares.params,
          ...where.params,
        );
      };
      const squares = (cells: number[]): [Fragment, string] => [
        fragment('unnest(array[?]::integer[]) as g(cell)', cells),
        'l.geo_cell = g.cell',
      ];
      const inside = this.cellsInside();
      const groups: Array<[number[], Fragment[]]> = [
        [inside, filters.filter((f) => !this.placeFilters.includes(f))],
        [(this.cells ?? []).filter((cell) => !inside.includes(cell)), filters],
      ];
      const lookups = this.cells
        ? groups.filter(([cells]) => cells.length > 0).map(([cells, filters]) => lookup(squares(cells), filters))
        : [lookup(this.squareRows(), filters)];
      const union = join(lookups, ' union all ');
      return fragment(`select count(*)::int as total from (${union.sql} ${limitOf(cap + 1)}) matches`, ...union.params);
    }
    const where = whereOf(this.matchFilters(plan));
    return fragment(
      `select count(*)::int as total from (select 1 from ${this.listings(plan)} where ${where.sql} ${limitOf(cap + 1)}) matches`,
      ...where.params,
    );
  }

  /** The radius's rows of grid squares (rowsWithin), as ranges of square numbers, nearest first. */
  private squareRows(): [Fragment, string] {
    const { latitude } = this.query.near as { latitude: number };
    const rows = rowsWithin(latitude, this.bounds as Bounds);
    return [
      fragment(
        'unnest(array[?]::integer[], array[?]::integer[]) as g(low, high)',
        rows.map((r) => r.low),
        rows.map((r) => r.high),
      ),
      'l.geo_cell between g.low and g.high',
    ];
  }

  /**
   * The listings within the page's reach (`place`), for the other filters to be checked row by
   * row. A generic plan cannot tell how many listings a price range or a word matches (it guesses a
   * few hundred) and would find them through the price or text index, every one; the `offset 0`
   * fences the place off from the other filters, so the grid index is walked, over the reach's few
   * squares. The reach's listings are found by id in that index alone (it holds the coordinates),
   * and only theirs are read: read whole for the distance, a reach's squares in a town held some
   * 23,000 listings for 500 within the reach (0.15 s). Without other filters (nothing to mistake)
   * the place is simply among the filters, as the grid index alone can then answer.
   */
  private foundByPlace(plan: SearchPlan, place: Fragment): { source: Fragment; where: Fragment[] } {
    if (plan.lexeme || (!narrowed(this.query) && !plan.text)) return { source: fragment(this.listings(plan)), where: [place] };
    const status = this.baseFilters[0] as Fragment;
    const seller = this.query.verifiedSellersOnly ? ' join app_user u on u.id = l.seller_id' : '';
    return {
      source: fragment(
        `(select l.* from listing l where l.id = any(array(select l.id from listing l where (${status.sql}) and (${place.sql})))) l${seller}`,
        ...status.params,
        ...place.params,
      ),
      where: [],
    };
  }

  /**
   * The listings to find matches in: the seller joined only when a filter asks about them, so a
   * count can be read from an index alone (with the join it read every row, or chose a table scan).
   */
  private listings(plan: SearchPlan): string {
    return this.query.verifiedSellersOnly ? `${this.source(plan)} join app_user u on u.id = l.seller_id` : this.source(plan);
  }

  /** Listings, or a word's postings joined to their listings (the word's filter is among the filters). */
  private source(plan: SearchPlan): string {
    // Each posting's listing looked up by its key, in the postings' order (a lateral join, which
    // PostgreSQL cannot turn into a hash of every match when it misjudges how many there are).
    return plan.lexeme
      ? 'listing_term t cross join lateral (select * from listing where listing.id = t.listing_id limit 1) l'
      : 'listing l';
  }

  /** Newest first, in the order of the index that finds the matches. */
  private newestOrder(plan: SearchPlan): string {
    return plan.lexeme ? 't.published_at desc, t.listing_id desc' : 'l.published_at desc, l.id desc';
  }

  /** The filters, with the radius's grid squares too: for finding matches through the text, place or grid index. */
  private matchFilters(plan: SearchPlan): Fragment[] {
    const filters = this.filtersOf(plan);
    if (this.cells) return [...filters, fragment('l.geo_cell = any(array[?]::integer[])', this.cells)];
    // A radius wider than the grid is used for holds listings enough to be met soon by any walk.
    return filters;
  }

  nextCursor(rows: ListingRow[], plan: SearchPlan): string | null {
    if (rows.length <= this.query.limit) return null;
    const last = rows[this.query.limit - 1] as ListingRow;
    return encodeCursor(this.sortKeys(plan).map((key) => key.value(last)));
  }
}

/**
 * The great-circle distance in metres from a listing `l` (or a row `of` with its coordinates) to a centre, on earthdistance's sphere: SQL
 * with the centre's latitude, the cosine of that latitude (centreCosine) and its longitude as given
 * (placeholders, or a saved search's columns). Browse's radius and reverse search's share it.
 */
export function arcMetresSql(latitude: string, cosine: string, longitude: string, of = 'l'): string {
  return `(${2 * EARTH_RADIUS_METRES}::float8 * asin(sqrt(power(sin(radians(${of}.latitude - ${latitude}) / 2), 2)
          + ${cosine} * cos(radians(${of}.latitude)) * power(sin(radians(${of}.longitude - ${longitude}) / 2), 2))))`;
}

/** The cosine of a centre's latitude, as arcMetresSql takes it. */
export const centreCosine = (latitude: number): number => Math.cos((latitude * Math.PI) / 180);

/** One query's test of a listing (ListingSearchSql.test), under a key that names the query. */
export interface KeyedTest {
  key: string;
  where: Fragment;
  seller: boolean;
}

/**
 * Which of many queries' tests one listing passes, in one statement: the keys of those it passes.
 * Queries of one shape (the same SQL, values of the same kinds) are tested together: their values
 * go in as arrays (one element a query, `unnest` makes them rows) and each `?` of the shared SQL
 * reads its column, so a thousand searches cost a few branches to plan, not a thousand.
 */
export function passingTests(tests: readonly KeyedTest[], listingId: string): Fragment | undefined {
  const shapes = new Map<string, { test: KeyedTest; types: string[]; keys: string[]; columns: unknown[][] }>();
  for (const test of tests) {
    if (test.where.sql.includes('array[?]')) throw new Error('a test binds single values only');
    const types = test.where.params.map(sqlType);
    const shape = `${test.seller}|${types.join(',')}|${test.where.sql}`;
    let group = shapes.get(shape);
    if (!group) shapes.set(shape, (group = { test, types, keys: [], columns: types.map(() => []) }));
    group.keys.push(test.key);
    test.where.params.forEach((value, i) => group.columns[i]?.push(value));
  }
  if (shapes.size === 0) return undefined;
  const branches = [...shapes.values()].map(({ test, types, keys, columns }) => {
    let column = 0;
    const where = test.where.sql.replace(/\?/g, () => `x.p${column++}`);
    const names = ['k', ...types.map((_, i) => `p${i}`)].join(', ');
    const arrays = ['array[?]::text[]', ...types.map((type) => `array[?]::${type}[]`)].join(', ');
    return fragment(
      `select x.k as key from listing l${test.seller ? ' join app_user u on u.id = l.seller_id' : ''}
        cross join unnest(${arrays}) as x(${names}) where l.id = ?::uuid and ${where}`,
      keys,
      ...columns,
      listingId,
    );
  });
  return join(branches, ' union all ');
}

/** The PostgreSQL type a value is bound as, in passingTests' arrays. */
function sqlType(value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int8' : 'float8';
  if (typeof value === 'string') return 'text';
  throw new Error(`a test cannot bind ${typeof value}`);
}

/**
 * The rows after the cursor's values in the sort's order, as a row comparison `(a, b) < (x, y)`:
 * PostgreSQL reads it as a range of the (a, b) index, so page 1000 starts where page 999 ended
 * instead of filtering its way there (an OR of "a < x, or a = x and b < y" scans from the top).
 */
function keysetAfter(keys: SortKey[], after: unknown[]): Fragment {
  const direction = keys[0]?.direction;
  // Every sort ends with the id in its own direction (sortKeys), so one comparison covers it.
  if (!keys.every((key) => key.direction === direction)) throw new Error('A keyset sort must run one way');
  const left = join(
    keys.map((key) => key.expression),
    ', ',
  );
  const right = join(
    keys.map((key, i) => fragment(`?::${key.cast}`, after[i])),
    ', ',
  );
  return fragment(`(${left.sql}) ${direction === 'asc' ? '>' : '<'} (${right.sql})`, ...left.params, ...right.params);
}

/**
 * A row count written into the SQL, checked to be a whole number first. Never bound: a prepared
 * statement's generic plan guesses a bound LIMIT at a tenth of the rows, and then sorted every
 * listing of a category by distance instead of meeting the nearest through the place index (1.8 s
 * against 17 ms for a listing page's related listings at a million). Page sizes are few, so the
 * statements prepared per page size stay few.
 */
function checkedCount(rows: number): number {
  if (!Number.isSafeInteger(rows) || rows < 0) throw new TypeError(`row count ${rows} is not a whole number`);
  return rows;
}

/** `limit n`, checked (checkedCount): for every statement that may be prepared. */
export const limitOf = (rows: number): string => `limit ${checkedCount(rows)}`;

const whereOf = (filters: Fragment[]): Fragment =>
  join(
    filters.map((f) => fragment(`(${f.sql})`, ...f.params)),
    ' and ',
  );

function prefixSelect(
  prefix: Fragment,
  source: string,
  columns: Fragment,
  where: Fragment,
  orderBy: Fragment,
  limit: number,
  joinMatches = '',
): Fragment {
  return fragment(
    `${prefix.sql}select ${columns.sql} from ${source} ${joinMatches} join category c on c.id = l.category_id join app_user u on u.id = l.seller_id
      where ${where.sql} order by ${orderBy.sql} ${limitOf(limit)}`,
    ...prefix.params,
    ...columns.params,
    ...where.params,
    ...orderBy.params,
  );
}

/**
 * A listing's price in pence in `unit`: its own price when priced in that unit, else converted
 * where its own quantity says how (listing_price_in_unit: a lot's total over its head count or
 * acres, or the reverse), else null, which no price bound matches. The unit is written into the
 * SQL, not bound: it is one of PRICE_UNITS, and an index holds the per-head expression.
 */
function priceInUnit(unit: PriceUnit): Fragment {
  if (!(unit in PRICE_UNITS)) throw new Error(`Unknown price unit ${unit}`);
  return fragment(`listing_price_in_unit(l.price_pence, l.price_unit, l.attributes, '${unit}')`);
}

/** Where listings without a price per head sort: last (a safe integer, so a cursor carries it exactly). */
const NO_PRICE_PER_HEAD = Number.MAX_SAFE_INTEGER;
const PRICE_PER_HEAD_SORTED = `coalesce(${priceInUnit('per-head').sql}, ${NO_PRICE_PER_HEAD})`;

const SELECT = `l.id, l.title, left(l.description, 160) as excerpt, l.price_pence, l.price_unit, l.vat, l.type,
  l.rent_subcategory, l.location_text, l.featured, l.views, l.saves_count, l.published_at, l.expires_at, l.status,
  ${priceInUnit('per-head').sql} as price_per_head_pence, c.slug as category_slug, c.name as category_name, u.id as seller_id, u.full_name as seller_name,
  (u.business_verified_at is not null) as seller_verified, u.seller_type, u.review_count as seller_review_count,
  u.review_stars_total as seller_review_stars`;
