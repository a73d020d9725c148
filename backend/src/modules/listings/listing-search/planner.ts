import { Inject, Injectable } from '@nestjs/common';
import { byPostingIndex, GATHER_LIMIT, type ListingQuery, type ListingSearchSql, narrowed, type SearchPlan } from './search-sql.js';
import { ListingWords } from './words.js';
import { searchRows } from './search-rows.js';
import { PreparedQueries } from '../../../infra/database/prepared-queries.js';

/** Matches counted at most (a browse shows "1,000+" beyond). */
export const TOTAL_CAP = 1_000;

/**
 * A radius's grid entries read at most to gather its matches from the grid index (index alone, a
 * few milliseconds at a million listings); a radius holding more is walked.
 */
const GRID_ENTRIES_GATHERED = 20_000;

/**
 * Chooses how to find a search's rows (ListingSearchSql's plans): words and places are counted
 * first through their index, so a rare word or a remote place is gathered, never walked. The one
 * place a search is planned.
 */
@Injectable()
export class SearchPlanner {
  constructor(
    @Inject(ListingWords) private readonly words: ListingWords,
    @Inject(PreparedQueries) private readonly prepared: PreparedQueries,
  ) {}

  /** `count`: the search's matches under a plan, counted by its SQL up to TOTAL_CAP + 1. */
  async plan(
    sql: ListingSearchSql,
    query: ListingQuery,
    text: string | undefined,
    count: (plan: SearchPlan) => Promise<number>,
  ): Promise<SearchPlan> {
    const asked: SearchPlan = { text };
    // A browse by no more than the sort's own order is a walk of its index. Other filters are
    // counted first: walking the sort's index past the listings they leave out read every listing
    // of a category when a range matched none (0.6 s at 100,000 listings), so few matches are gathered.
    if (!text && !query.radiusMiles && !narrowed(query)) return asked;
    // Counted beside the page (ListingSearch), not first.
    if (sql.boundedWalk(asked)) return { ...asked, kind: 'walk' };
    const alone = onlyWords(query);
    const within = sql.postingConditions();
    const search = text ? await this.words.required(text, TOTAL_CAP) : undefined;
    // A single word alone is counted from its postings, several words (or words with filters their
    // postings hold) from the rarest one's postings when that is conclusive; other searches, with
    // other filters, through their index.
    const matches =
      alone && search?.words.length === 1
        ? search.words[0].postings
        : ((search && !search.phrase && (alone || within) ? await this.words.countTogether(search.words, TOTAL_CAP, within) : undefined) ??
          (await count(asked)));
    const rarest = search?.words[0];
    // One word is ranked from its postings' own index of rank, however many listings hold it; with
    // other filters, when they leave more than are gathered (each posting's listing is checked for them).
    if (rarest && search.words.length === 1 && query.sort === 'relevance' && (alone || matches > GATHER_LIMIT)) {
      return { ...asked, kind: 'walk', matches, lexeme: rarest.lexeme, lexemeOnly: true };
    }
    const kind = matches <= GATHER_LIMIT ? 'gather' : query.sort === 'relevance' && text ? 'newest' : 'walk';
    // Many matches within a radius of few listings: all gathered from the grid index, where a walk of
    // the sort's index could read far past them (ListingSearchSql.gathersFromGrid).
    if (kind === 'walk' && sql.gathersFromGrid(asked)) {
      const [entries] = await searchRows<{ total: number }>(this.prepared, sql.gridEntries(GRID_ENTRIES_GATHERED), true, 'replica');
      if ((entries?.total ?? Infinity) <= GRID_ENTRIES_GATHERED) return { ...asked, kind: 'gather', matches };
    }
    // The rarest word's postings find the matches when they are needed in an order the postings
    // are indexed in (newest first, by price), or all of them where the word alone is rare enough
    // (with other filters, the filters may be what leaves few).
    const byPostings =
      rarest &&
      (kind === 'gather' ? alone || within !== undefined || rarest.postings <= TOTAL_CAP : kind === 'newest' || byPostingIndex(query.sort));
    return { ...asked, kind, matches, lexeme: byPostings ? rarest.lexeme : undefined, lexemeOnly: search?.words.length === 1 };
  }
}

/** A search by words alone, among live listings: its matches are the listings holding every word. */
function onlyWords(query: ListingQuery): boolean {
  return !narrowed(query) && !query.near;
}
