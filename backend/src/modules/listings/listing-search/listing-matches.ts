import { Inject, Injectable } from '@nestjs/common';
import { Geocoder } from '../../../infra/geocoding/geocoder.js';
import { PreparedQueries } from '../../../infra/database/prepared-queries.js';
import type { ListingCard } from '../dto/listing.response.js';
import { ListingCards } from '../listing-cards.js';
import { ListingSearch } from './listing-search.js';
import type { SearchQuery } from './search-query.js';
import { arcMetresSql, centreCosine, type ListingQuery, type ListingRow } from './search-sql.js';

/** Card rows read at once (ListingMatches.cardRows). */
const CARD_ROWS_PER_READ = 512;

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

  /** Of these listings, the ones live now (cheaply, for many at once: liveCardsOf then shows a few of them). */
  async liveIds(ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.prepared.all<{ id: string }>(`select id from listing where id = any(array[?]::uuid[]) and status = 'live'`, [
      ids,
    ]);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Cards for several lists of listings (an e-mail's sections), read once for all of them: each list's still live
   * only, newest first, with its distance from the list's own place, as browse's cards work it out (arcMetresSql).
   */
  async liveCardsOf(lists: ReadonlyArray<{ ids: string[]; near?: { latitude: number; longitude: number } }>): Promise<ListingCard[][]> {
    const ids = [...new Set(lists.flatMap((list) => list.ids))];
    if (ids.length === 0) return lists.map(() => []);
    const placed = lists.flatMap((list, i) => (list.near ? list.ids.map((id) => ({ i, id, near: list.near! })) : []));
    const [rows, distances] = await Promise.all([
      this.cardRows(ids),
      placed.length === 0
        ? []
        : this.prepared.all<{ i: number; id: string; distance_m: string }>(
            `select x.i, l.id, round(${arcMetresSql('x.latitude', 'x.cosine', 'x.longitude')}::numeric, 1) as distance_m
              from unnest(array[?]::int[], array[?]::uuid[], array[?]::float8[], array[?]::float8[], array[?]::float8[])
                as x(i, id, latitude, cosine, longitude) join listing l on l.id = x.id`,
            [
              placed.map((pair) => pair.i),
              placed.map((pair) => pair.id),
              placed.map((pair) => pair.near.latitude),
              placed.map((pair) => centreCosine(pair.near.latitude)),
              placed.map((pair) => pair.near.longitude),
            ],
          ),
    ]);
    const distance = new Map(distances.map((row) => [`${row.i} ${row.id}`, row.distance_m]));
    return lists.map((list, i) => {
      const mine = new Set(list.ids);
      const shown = rows.filter((row) => mine.has(row.id)).map((row) => ({ ...row, distance_m: distance.get(`${i} ${row.id}`) ?? null }));
      return this.cards.cards(shown, list.near);
    });
  }

  /**
   * These listings' card rows, the live ones, newest first. Read CARD_ROWS_PER_READ at a time, each read's ids padded
   * (the last repeated) to a power of two: the cards' SQL names each id (in (...)) and is a prepared statement,
   * so a read of any other count would be a statement of its own on every connection.
   */
  private async cardRows(ids: string[]): Promise<ListingRow[]> {
    const reads = [];
    for (let i = 0; i < ids.length; i += CARD_ROWS_PER_READ) {
      const chunk = ids.slice(i, i + CARD_ROWS_PER_READ);
      const padded = [
        ...chunk,
        ...Array<string>(2 ** Math.ceil(Math.log2(Math.max(8, chunk.length))) - chunk.length).fill(chunk[chunk.length - 1] as string),
      ];
      reads.push(this.cards.list({ ids: padded, sort: 'newest', limit: padded.length }, 'primary'));
    }
    const rows = (await Promise.all(reads)).flatMap((page) => page.rows);
    // Newest first across the reads, as each read is (published_at to the millisecond, then id).
    const at = (row: ListingRow) => Date.parse(row.published_at);
    return rows.sort((a, b) => at(b) - at(a) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  }
}
