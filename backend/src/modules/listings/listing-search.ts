import { BadRequestException } from '@nestjs/common';
import { decodeCursor, encodeCursor } from '../../common/keyset-pagination.js';
import type { CategorySlug } from '../../contracts/categories.js';
import type { ListingSort, ListingStatus, ListingType, RentSubcategory } from '../../contracts/listings.js';

/** What a browse or search asks for, already validated (ListingSearchRequest). */
export interface ListingQuery {
  text?: string;
  categoryId?: number;
  rentSubcategory?: RentSubcategory;
  type?: ListingType;
  minPricePence?: number;
  maxPricePence?: number;
  near?: { latitude: number; longitude: number };
  radiusMiles?: number;
  verifiedSellersOnly?: boolean;
  featuredOnly?: boolean;
  withImagesOnly?: boolean;
  postedWithinDays?: number;
  /** Per-category ranges on `attributes`, e.g. { key: 'hours', max: 3000 }. Keys come from the declared fields. */
  attributeRanges?: Array<{ key: string; min?: number; max?: number }>;
  sellerId?: string;
  /** Only these listings (a user's saved ones). */
  ids?: string[];
  statuses?: readonly ListingStatus[];
  sort: ListingSort;
  cursor?: string;
  limit: number;
  /**
   * A word every match contains (a stem of `text`, as full text makes it): matches are then found
   * through that word's postings (listing_term), newest first, instead of the GIN index.
   */
  lexeme?: string;
  /** The text is that one word: its postings are exactly the matches, and the text filter is left out. */
  lexemeOnly?: boolean;
  /**
   * How the rows are found (see ListingSearchSql): `walk` the sort's index, `gather` every match
   * through the text or place index and sort them, or rank only the `newest` matches. Default walk.
   */
  plan?: SearchPlan;
}

export type SearchPlan = 'walk' | 'gather' | 'newest';

/** Matches gathered at most (through the text or place index) and sorted. */
export const GATHER_LIMIT = 1_000;
/**
 * With more matches than that, relevance ranks the newest this many. Finding them walks the
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
  distance_m: string | null;
  rank: string | null;
  proximity: number | null;
}

/** A piece of SQL with the values its `?` placeholders bind, in order. */
interface Fragment {
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
  cast: string;
}

const METRES_PER_MILE = 1609.344;

/**
 * The SQL of one page of listings: filters, the keyset after the cursor, and the order (the id
 * breaks ties). Values are always bound; only fixed SQL text is put together.
 *
 * Plans. PostgreSQL guesses how many listings a word or a place matches, and for a rare word (a
 * typo) or a remote place it guesses high, walks the newest-first index hoping to meet matches
 * soon, and reads all million rows (seconds). The service counts the matches first (bounded,
 * through the text or place index, milliseconds) and picks: few matches are gathered through that
 * index and sorted (`gather`); many are met soon by walking the sort's index (`walk`); ranking by
 * relevance ranks the newest RELEVANCE_WINDOW matches rather than every one (`newest`).
 */
export class ListingSearchSql {
  private readonly filters: Fragment[] = [];
  private readonly distance: Fragment | undefined;
  /** Straight-line distance through the earth, which the place index can order by (nearest first). */
  private readonly proximity: Fragment | undefined;
  private readonly rank: Fragment | undefined;
  /** The radius as an indexable box, for the plans that find matches through the place index. */
  private readonly placeBox: Fragment | undefined;

  constructor(private readonly query: ListingQuery) {
    const statuses = query.statuses ?? ['live'];
    this.filters.push(fragment(`l.status in (${statuses.map(() => '?').join(', ')})`, ...statuses));
    if (query.sellerId) this.filters.push(fragment('l.seller_id = ?', query.sellerId));
    if (query.ids) this.filters.push(fragment(`l.id in (${query.ids.map(() => '?').join(', ') || 'null'})`, ...query.ids));
    if (query.categoryId !== undefined) this.filters.push(fragment('l.category_id = ?', query.categoryId));
    if (query.rentSubcategory) this.filters.push(fragment('l.rent_subcategory = ?', query.rentSubcategory));
    if (query.type) this.filters.push(fragment('l.type = ?', query.type));
    if (query.minPricePence !== undefined) this.filters.push(fragment('l.price_pence >= ?', query.minPricePence));
    if (query.maxPricePence !== undefined) this.filters.push(fragment('l.price_pence <= ?', query.maxPricePence));
    if (query.verifiedSellersOnly) this.filters.push(fragment('u.email_verified_at is not null'));
    if (query.featuredOnly) this.filters.push(fragment('l.featured'));
    // The one place listings read the images module's table: "has a ready photo" as an EXISTS keeps
    // the home grid's fallback one indexed query (the ListingImages port answers per listing).
    if (query.withImagesOnly)
      this.filters.push(fragment(`exists (select 1 from image i where i.listing_id = l.id and i.status = 'ready')`));
    if (query.postedWithinDays) this.filters.push(fragment('l.published_at >= now() - make_interval(days => ?)', query.postedWithinDays));
    for (const range of query.attributeRanges ?? []) {
      if (range.min !== undefined) this.filters.push(fragment(`(l.attributes->>?)::numeric >= ?`, range.key, range.min));
      if (range.max !== undefined) this.filters.push(fragment(`(l.attributes->>?)::numeric <= ?`, range.key, range.max));
    }
    if (query.lexeme) this.filters.push(fragment('t.lexeme = ?', query.lexeme));
    if (query.text) {
      // (Repeating what the postings already say would make PostgreSQL count the word twice and expect one row.)
      if (!(query.lexeme && query.lexemeOnly))
        this.filters.push(fragment(`l.search_vector @@ websearch_to_tsquery('english', ?)`, query.text));
      this.rank = fragment(`round(ts_rank_cd(l.search_vector, websearch_to_tsquery('english', ?), 1)::numeric, 6)`, query.text);
    }
    if (query.near) {
      const { latitude, longitude } = query.near;
      this.distance = fragment(
        `round(earth_distance(ll_to_earth(?, ?), ll_to_earth(l.latitude, l.longitude))::numeric, 1)`,
        latitude,
        longitude,
      );
      this.proximity = fragment(`(ll_to_earth(l.latitude, l.longitude) <-> ll_to_earth(?, ?))`, latitude, longitude);
      if (query.radiusMiles) {
        const metres = query.radiusMiles * METRES_PER_MILE;
        // The box finds the place's listings through the GiST index (counting and gathering); the
        // distance trims its corners. A walk leaves the box out: PostgreSQL underestimates how
        // many listings a box holds and, given it, reads them all instead of walking the sort's index.
        this.placeBox = fragment(`earth_box(ll_to_earth(?, ?), ?) @> ll_to_earth(l.latitude, l.longitude)`, latitude, longitude, metres);
        this.filters.push(
          fragment(`earth_distance(ll_to_earth(?, ?), ll_to_earth(l.latitude, l.longitude)) <= ?`, latitude, longitude, metres),
        );
      }
    }
  }

  private sortKeys(): SortKey[] {
    const byId = (direction: 'asc' | 'desc'): SortKey => ({ expression: fragment('l.id'), value: (r) => r.id, direction, cast: 'uuid' });
    const column = (name: string, cast: string, value: SortKey['value'], direction: 'asc' | 'desc'): SortKey[] => [
      { expression: fragment(name), value, direction, cast },
      byId(direction),
    ];
    // A walk through a word's postings follows their index: the same values, read from the posting.
    const postings = this.query.lexeme !== undefined && (this.query.plan ?? 'walk') === 'walk';
    const byPublication = (direction: 'asc' | 'desc'): SortKey[] =>
      postings
        ? [
            { expression: fragment('t.published_at'), value: (r) => r.published_at, direction, cast: 'timestamptz' },
            { expression: fragment('t.listing_id'), value: (r) => r.id, direction, cast: 'uuid' },
          ]
        : column('l.published_at', 'timestamptz', (r) => r.published_at, direction);
    switch (this.query.sort) {
      case 'newest':
        return byPublication('desc');
      case 'oldest':
        return byPublication('asc');
      case 'price-low':
        return column('l.price_pence', 'bigint', (r) => Number(r.price_pence), 'asc');
      case 'price-high':
        return column('l.price_pence', 'bigint', (r) => Number(r.price_pence), 'desc');
      case 'popular':
        return column('l.views', 'integer', (r) => r.views, 'desc');
      case 'nearest':
        if (!this.distance) throw new BadRequestException('Sorting by distance needs a location.');
        if (!this.proximity) throw new BadRequestException('Sorting by distance needs a location.');
        return [{ expression: this.proximity, value: (r) => Number(r.proximity), direction: 'asc', cast: 'float8' }, byId('asc')];
      case 'relevance':
        if (!this.rank) throw new BadRequestException('Sorting by relevance needs words to search for.');
        return [{ expression: this.rank, value: (r) => String(r.rank), direction: 'desc', cast: 'numeric' }, byId('desc')];
    }
  }

  /** One page: a row more than the limit, to know whether another page follows. */
  page(): Fragment {
    const keys = this.sortKeys();
    const filters = [...this.filters];
    if (this.query.cursor) {
      filters.push(keysetAfter(keys, decodeCursor(this.query.cursor, keys.length)));
    }
    const columns = join(
      [
        fragment(SELECT),
        this.distance ? fragment(`${this.distance.sql} as distance_m`, ...this.distance.params) : fragment('null as distance_m'),
        this.rank ? fragment(`${this.rank.sql} as rank`, ...this.rank.params) : fragment('null as rank'),
        this.proximity ? fragment(`${this.proximity.sql} as proximity`, ...this.proximity.params) : fragment('null as proximity'),
      ],
      ', ',
    );
    const orderBy = join(
      keys.map((key) => fragment(`${key.expression.sql} ${key.direction}`, ...key.expression.params)),
      ', ',
    );
    const plan = this.query.plan ?? 'walk';
    if (plan === 'walk' && this.query.sort === 'nearest' && this.proximity) {
      return prefixSelect(
        this.nearestEdge(filters),
        this.source(),
        columns,
        whereOf([...filters, this.withinEdge()]),
        orderBy,
        this.query.limit + 1,
      );
    }
    if (plan === 'walk') return prefixSelect(fragment(''), this.source(), columns, whereOf(filters), orderBy, this.query.limit + 1);
    // The matches first, as a fence the planner cannot see through: found through the text or place index.
    const matches = whereOf(this.matchFilters());
    const candidates =
      plan === 'gather'
        ? fragment(`select l.id from ${this.listings()} where ${matches.sql}`, ...matches.params)
        : fragment(
            `select l.id from ${this.listings()} where ${matches.sql} order by ${this.newestOrder()} limit ?`,
            ...matches.params,
            RELEVANCE_WINDOW,
          );
    const keyset = filters.slice(this.filters.length);
    return prefixSelect(
      fragment(`with matches as materialized (${candidates.sql}) `, ...candidates.params),
      'listing l',
      columns,
      keyset.length > 0 ? whereOf(keyset) : fragment('true'),
      orderBy,
      this.query.limit + 1,
      'join matches m on m.id = l.id',
    );
  }

  /**
   * Nearest first, in two steps. The place index hands out listings nearest first (a KNN scan),
   * but only when distance is the whole order, and the order also needs the id, for the many
   * listings of one farm or town at one distance. So the scan finds how far the page reaches (the
   * distance of its last row), and the page is then every match within that reach, through the
   * index as a box, sorted by distance and id: a few dozen rows however many listings there are.
   */
  private nearestEdge(filters: Fragment[]): Fragment {
    const proximity = this.proximity as Fragment;
    const where = whereOf(filters);
    return fragment(
      `with edge as materialized (select max(p) as reach from (select ${proximity.sql} as p from ${this.listings()}
        where ${where.sql} order by ${proximity.sql} limit ?) nearest) `,
      ...proximity.params,
      ...where.params,
      ...proximity.params,
      this.query.limit + 1,
    );
  }

  /** Within the page's reach: a box a little larger than it (the box measures along the earth, the reach through it), then exactly. */
  private withinEdge(): Fragment {
    const proximity = this.proximity as Fragment;
    const { latitude, longitude } = this.query.near as { latitude: number; longitude: number };
    return fragment(
      `earth_box(ll_to_earth(?, ?), (select reach from edge) * 1.001 + 1) @> ll_to_earth(l.latitude, l.longitude)
        and ${proximity.sql} <= (select reach from edge)`,
      latitude,
      longitude,
      ...proximity.params,
    );
  }

  /** Where relevance's window of the newest matches ends: its oldest match (newest-first keyset values). */
  windowEdge(): Fragment {
    const where = whereOf(this.matchFilters());
    return fragment(
      `select l.published_at, l.id from ${this.listings()} where ${where.sql}
        order by ${this.newestOrder()} offset ? limit 1`,
      ...where.params,
      RELEVANCE_WINDOW - 1,
    );
  }

  /** Matches counted up to `cap` + 1 (a browse shows "1,000+" beyond), for the first page only. */
  count(cap: number): Fragment {
    const where = whereOf(this.matchFilters());
    return fragment(
      `select count(*)::int as total from (select 1 from ${this.listings()} where ${where.sql} limit ?) matches`,
      ...where.params,
      cap + 1,
    );
  }

  /**
   * The listings to find matches in: the seller joined only when a filter asks about them, so a
   * count can be read from an index alone (with the join it read every row, or chose a table scan).
   */
  private listings(): string {
    return this.query.verifiedSellersOnly ? `${this.source()} join app_user u on u.id = l.seller_id` : this.source();
  }

  /** Listings, or a word's postings joined to their listings (the word's filter is among the filters). */
  private source(): string {
    return this.query.lexeme ? 'listing_term t join listing l on l.id = t.listing_id' : 'listing l';
  }

  /** Newest first, in the order of the index that finds the matches. */
  private newestOrder(): string {
    return this.query.lexeme ? 't.published_at desc, t.listing_id desc' : 'l.published_at desc, l.id desc';
  }

  /** The filters, with the radius as a box too: for finding matches through the text or place index. */
  private matchFilters(): Fragment[] {
    return this.placeBox ? [...this.filters, this.placeBox] : this.filters;
  }

  nextCursor(rows: ListingRow[]): string | null {
    if (rows.length <= this.query.limit) return null;
    const last = rows[this.query.limit - 1] as ListingRow;
    return encodeCursor(this.sortKeys().map((key) => key.value(last)));
  }
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
      where ${where.sql} order by ${orderBy.sql} limit ?`,
    ...prefix.params,
    ...columns.params,
    ...where.params,
    ...orderBy.params,
    limit,
  );
}

const SELECT = `l.id, l.title, left(l.description, 160) as excerpt, l.price_pence, l.price_unit, l.vat, l.type,
  l.rent_subcategory, l.location_text, l.featured, l.views, l.saves_count, l.published_at, l.expires_at, l.status,
  c.slug as category_slug, c.name as category_name, u.id as seller_id, u.full_name as seller_name,
  (u.email_verified_at is not null) as seller_verified`;
