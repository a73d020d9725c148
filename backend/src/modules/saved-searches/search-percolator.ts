import type { ListingQuery } from '../listings/listing-search/search-sql.js';
import { boundsAround, cellsWithin } from '../listings/geo-grid.js';

/**
 * Reverse search, the pruning half (Elasticsearch's percolator is the model): a saved search is
 * stored with keys, any of which a matching listing must carry, under a GIN index, and with the
 * bounds every match keeps to. A new listing then meets only the searches that share a key with it
 * and whose bounds it is within: its candidates, confirmed together by their searches' own filters
 * (ListingSearch.finding). Pruning only ever drops searches the listing cannot match: saved-searches.spec's
 * property test compares what matching records with every search's own browse page.
 */
export interface PruneFacts {
  pruneKeys: string[];
  categoryId: number | null;
  listingType: string | null;
  minPricePence: number | null;
  maxPricePence: number | null;
  /** The grid squares the radius reaches, when it has one with few enough squares. */
  cells: number[] | null;
  /** Words (stems) every match contains. */
  lexemes: string[] | null;
}

/** What a listing is pruned by: its keys, and the values the searches' bounds are compared with. */
export interface ListingFacts {
  categoryId: number;
  type: string;
  pricePence: number;
  geoCell: number | null;
  /** Its search vector's lexemes. */
  lexemes: string[];
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
  const facts = {
    categoryId: query.categoryId ?? null,
    listingType: query.type ?? null,
    minPricePence: rawPrice ? (query.minPricePence ?? null) : null,
    maxPricePence: rawPrice ? (query.maxPricePence ?? null) : null,
    cells,
    lexemes: lexemes && lexemes.length > 0 ? lexemes : null,
  };
  return { ...facts, pruneKeys: anchorKeys(facts) };
}

/**
 * The search's keys: the narrowest thing it is sure to need. A radius's squares (a few dozen of
 * thousands), else its longest word (long words are rare), else its category, its type, or none.
 */
function anchorKeys(facts: Omit<PruneFacts, 'pruneKeys'>): string[] {
  if (facts.cells) return facts.cells.map((cell) => `cell:${cell}`);
  if (facts.lexemes) return [`word:${[...facts.lexemes].sort((a, b) => b.length - a.length)[0]}`];
  if (facts.categoryId !== null) return [`cat:${facts.categoryId}`];
  if (facts.listingType !== null) return [`type:${facts.listingType}`];
  return ['any'];
}

/** Every key a listing carries: a search sharing one of them is a candidate. */
export function listingKeys(listing: ListingFacts): string[] {
  return [
    'any',
    `cat:${listing.categoryId}`,
    `type:${listing.type}`,
    ...(listing.geoCell === null ? [] : [`cell:${listing.geoCell}`]),
    ...listing.lexemes.map((lexeme) => `word:${lexeme}`),
  ];
}
