import { Inject, Injectable } from '@nestjs/common';
import { Geocoder } from '../../../infra/geocoding/geocoder.js';
import { PreparedQueries } from '../../../infra/database/prepared-queries.js';
import type { ListingCard } from '../dto/listing.response.js';
import { ListingCards } from '../listing-cards.js';
import { ListingSearch } from './listing-search.js';
import type { SearchQuery } from './search-query.js';
import type { ListingQuery } from './search-sql.js';

/**
 * Saved searches' side of search: which queries a listing is among the answers of, decided by the
 * queries' own filters (ListingSearchSql, as browse builds them) on that listing, so an alert never
 * announces a listing the search's page would not show, whatever filters the query gains.
 */
@Injectable()
export class ListingMatches {
  constructor(
    @Inject(ListingSearch) private readonly search: ListingSearch,
    @Inject(ListingCards) private readonly cards: ListingCards,
    @Inject(PreparedQueries) private readonly prepared: PreparedQueries,
    @Inject(Geocoder) private readonly geocoder: Geocoder,
  ) {}

  /** A place id's name ("Taunton"), for a saved search's suggested name. */
  async placeName(placeId: string): Promise<string | undefined> {
    return (await this.geocoder.byId(placeId))?.name;
  }

  /** The query as the database knows it (a place's coordinates, a category's id); refused when its place is gone. */
  resolved(query: SearchQuery): Promise<ListingQuery> {
    return this.search.resolved(query, { limit: 1 });
  }

  /** Full text's reading of the words: what saved searches prune by (requiredLexemes). */
  async querytree(text: string): Promise<string | null> {
    const [row] = await this.prepared.all<{ tree: string | null }>(`select querytree(websearch_to_tsquery('english', ?))::text as tree`, [
      text,
    ]);
    return row?.tree ?? null;
  }

  /** Which of these queries (keyed) find the live listing now: each query's own filters, in one statement (ListingSearch.finding). */
  finding(queries: ReadonlyArray<{ key: string; query: SearchQuery }>, listingId: string): Promise<string[]> {
    return this.search.finding(queries, listingId);
  }

  /** Of these listings, the ones live now (cheaply, for many at once: liveCards then shows a few of them). */
  async liveIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.prepared.all<{ id: string }>(`select id from listing where id = any(array[?]::uuid[]) and status = 'live'`, [
      ids,
    ]);
    return new Set(rows.map((row) => row.id));
  }

  /** These listings as cards, those still live only, newest first, with their distance from the query's place. */
  async liveCards(ids: string[], query: ListingQuery): Promise<ListingCard[]> {
    if (ids.length === 0) return [];
    const { near } = query;
    const page = await this.cards.list({ ids, near, sort: 'newest', limit: ids.length }, 'primary');
    return this.cards.cards(page.rows.slice(0, ids.length), near);
  }
}
