import { boundsAround, cellsWithin, METRES_PER_MILE } from '../listings/geo-grid.js';
import { centreCosine, type ListingQuery } from '../listings/listing-search/search-sql.js';

/**
 * Reverse search, the pruning half (Elasticsearch's percolator is the model): a saved search is
 * stored with keys, any of which a matching listing must carry, and with the bounds every match keeps
 * to. The keys are worked out from these facts by the database (saved_search_prune_keys, kept in
 * saved_search_prune by a trigger): its radius's grid squares (coarser squares for a wide radius, with
 * its category), else its longest word, its category, its type or none. A new listing then meets only
 * the searches that share a key with it (listing_prune_keys) and whose bounds it is within. Pruning
 * only ever drops searches the listing cannot match: saved-searches.spec's property test compares what
 * matching records with every search's own browse page.
 */
export interface PruneFacts {
  categoryId: number | null;
  listingType: string | null;
  minPricePence: number | null;
  maxPricePence: number | null;
  /** The grid squares the radius reaches, when it has one with few enough squares. */
  cells: number[] | null;
  /** Words (stems) every match contains. */
  lexemes: string[] | null;
}

/**
 * Everything else a saved search's browse page filters by, in columns the database tests a new
 * listing against (SavedSearchMatcher's one statement), so no stored query is read in JS per
 * listing. Each is browse's filter (ListingSearchSql) on the listing, written over the columns;
 * saved-searches.spec's property test holds the two to the same answers.
 */
export interface MatchColumns extends PruneFacts {
  rentSubcategory: string | null;
  /** Price bounds in a unit (per head, per acre), compared with listing_price_in_unit. */
  priceUnit: string | null;
  unitMinPricePence: number | null;
  unitMaxPricePence: number | null;
  /** The radius: its centre, the centre's cosine (arcMetresSql), metres, and its box when it has one. */
  nearLatitude: number | null;
  nearLongitude: number | null;
  nearCosine: number | null;
  radiusMetres: number | null;
  box: { south: number; north: number; west: number; east: number } | null;
  /** The words as typed: the database keeps websearch_to_tsquery('english', words) beside them. */
  words: string | null;
  verifiedOnly: boolean;
  featuredOnly: boolean;
  postedWithinDays: number | null;
  attributeRanges: Array<{ key: string; min?: number; max?: number }> | null;
  /** Field matches, a yes-no's value as browse compares it (text). */
  attributeMatches: Array<
    { key: string; equals: string } | { key: string; anyOf: string[] } | { key: string; dateFrom: string; dateTo: string }
  > | null;
}

/**
 * Every field of a resolved query, and what reverse search does with it: a field added to
 * ListingQuery fails the type check here until matching tests it too.
 */
const MATCHED_BY: Record<keyof ListingQuery, 'column' | 'not a filter' | 'never saved'> = {
  categoryId: 'column',
  rentSubcategory: 'column',
  type: 'column',
  minPricePence: 'column',
  maxPricePence: 'column',
  priceUnit: 'column',
  near: 'column',
  radiusMiles: 'column',
  verifiedSellersOnly: 'column',
  featuredOnly: 'column',
  postedWithinDays: 'column',
  attributeRanges: 'column',
  attributeMatches: 'column',
  withImagesOnly: 'never saved',
  sellerId: 'never saved',
  ids: 'never saved',
  statuses: 'never saved',
  sort: 'not a filter',
  cursor: 'not a filter',
  limit: 'not a filter',
};

/** The version of MatchColumns' meaning: searches stored under another are worked out again (SavedSearchesService.prepare). */
export const MATCH_COLUMNS_VERSION = 1;

/** A resolved query's match columns; `text` its words, `lexemes` from requiredLexemes. */
export function matchColumnsOf(query: ListingQuery, text: string | undefined, lexemes: string[] | null): MatchColumns {
  for (const [field, how] of Object.entries(MATCHED_BY)) {
    if (how === 'never saved' && query[field as keyof ListingQuery] !== undefined)
      throw new Error(`a saved search cannot filter by ${field}`);
  }
  const { near, radiusMiles, priceUnit } = query;
  const radius = near && radiusMiles ? radiusMiles : undefined;
  const unitBounds = priceUnit !== undefined && (query.minPricePence !== undefined || query.maxPricePence !== undefined);
  return {
    ...pruneFactsOf(query, lexemes),
    rentSubcategory: query.rentSubcategory ?? null,
    priceUnit: unitBounds ? priceUnit : null,
    unitMinPricePence: unitBounds ? (query.minPricePence ?? null) : null,
    unitMaxPricePence: unitBounds ? (query.maxPricePence ?? null) : null,
    nearLatitude: radius ? near!.latitude : null,
    nearLongitude: radius ? near!.longitude : null,
    nearCosine: radius ? centreCosine(near!.latitude) : null,
    radiusMetres: radius ? radius * METRES_PER_MILE : null,
    box: radius ? (boundsAround(near!.latitude, near!.longitude, radius) ?? null) : null,
    words: text || null,
    verifiedOnly: Boolean(query.verifiedSellersOnly),
    featuredOnly: Boolean(query.featuredOnly),
    postedWithinDays: query.postedWithinDays || null,
    attributeRanges: query.attributeRanges?.length ? query.attributeRanges : null,
    attributeMatches: query.attributeMatches?.length
      ? query.attributeMatches.map((match) => ('equals' in match ? { key: match.key, equals: String(match.equals) } : match))
      : null,
  };
}

/**
 * The words a full-text query (PostgreSQL's querytree of websearch_to_tsquery) requires of every
 * match, or null when it does not require them all (an "or", a "-word", a prefix) or has none.
 */
export function requiredLexemes(querytree: string | null): string[] | null {
  if (!querytree || querytree === 'T') return null;
  // Only terms joined by "and" or "followed by": each term is then in every match.
  const term = `'(?:[^']|'')+'`;
  if (!new RegExp(`^${term}(?: (?:&|<->|<\\d+>) ${term})*$`).test(querytree)) return null;
  return [...querytree.matchAll(new RegExp(term, 'g'))].map(([quoted]) => quoted.slice(1, -1).replace(/''/g, "'"));
}

/** A resolved query's prune facts; `lexemes` from requiredLexemes. */
export function pruneFactsOf(query: ListingQuery, lexemes: string[] | null): PruneFacts {
  const { near, radiusMiles } = query;
  const bounds = near && radiusMiles ? boundsAround(near.latitude, near.longitude, radiusMiles) : undefined;
  const cells = near && radiusMiles && bounds ? (cellsWithin(near.latitude, near.longitude, radiusMiles, bounds) ?? null) : null;
  // Bounds in a unit (per head, per acre) are compared with each listing's price in that unit (browse's
  // listing_price_in_unit), not with the stored price: they cannot prune by it.
  const rawPrice = query.priceUnit === undefined;
  return {
    categoryId: query.categoryId ?? null,
    listingType: query.type ?? null,
    minPricePence: rawPrice ? (query.minPricePence ?? null) : null,
    maxPricePence: rawPrice ? (query.maxPricePence ?? null) : null,
    cells,
    lexemes: lexemes && lexemes.length > 0 ? lexemes : null,
  };
}

/** The columns as SavedSearch stores them. */
export function matchColumnsRow(columns: MatchColumns) {
  const pence = (value: number | null) => (value === null ? null : String(value));
  return {
    matchVersion: MATCH_COLUMNS_VERSION,
    categoryId: columns.categoryId,
    listingType: columns.listingType,
    minPricePence: pence(columns.minPricePence),
    maxPricePence: pence(columns.maxPricePence),
    cells: columns.cells,
    lexemes: columns.lexemes,
    rentSubcategory: columns.rentSubcategory,
    priceUnit: columns.priceUnit,
    unitMinPricePence: pence(columns.unitMinPricePence),
    unitMaxPricePence: pence(columns.unitMaxPricePence),
    nearLatitude: columns.nearLatitude,
    nearLongitude: columns.nearLongitude,
    nearCosine: columns.nearCosine,
    radiusMetres: columns.radiusMetres,
    boxSouth: columns.box?.south ?? null,
    boxNorth: columns.box?.north ?? null,
    boxWest: columns.box?.west ?? null,
    boxEast: columns.box?.east ?? null,
    words: columns.words,
    verifiedOnly: columns.verifiedOnly,
    featuredOnly: columns.featuredOnly,
    postedWithinDays: columns.postedWithinDays,
    attributeRanges: columns.attributeRanges,
    attributeMatches: columns.attributeMatches,
  };
}
