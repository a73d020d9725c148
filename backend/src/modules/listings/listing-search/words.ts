import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { PreparedQueries } from '../../../infra/database/prepared-queries.js';
import { limitOf, type ListingSearchSql } from './search-sql.js';

/** A word every match of a search must hold (a stem, as full text makes it), with its live listings counted. */
export interface RequiredWord {
  lexeme: string;
  /** Live listings holding the word, counted up to the cap asked for. */
  postings: number;
}

/** The words of a search that every match must hold, rarest first; `phrase` when they must also stand together. */
export interface RequiredWords {
  words: [RequiredWord, ...RequiredWord[]];
  phrase: boolean;
}

/** A search's filters as conditions on a word's postings, and the index they are best read through. */
export type PostingConditions = NonNullable<ReturnType<ListingSearchSql['postingConditions']>>;

/** Postings of a search's rarest word checked at most when counting several words (countTogether). */
const POSTINGS_PROBED = 2_000;
/** How long the shares of the commonest words (from PostgreSQL's statistics) are kept. */
const WORD_SHARES_MS = 10 * 60_000;

/**
 * What search knows of words, read through the word postings (`listing_term`, kept by triggers on
 * listing), for planning (SearchPlanner): which words a search requires and how common each is, and
 * how many listings hold several together. Only searches ask: every query here reads the read
 * replica when there is one.
 */
@Injectable()
export class ListingWords {
  /** The commonest words' shares of all postings (PostgreSQL's statistics), as last read. */
  private shares?: { at: number; byWord: Map<string, number> };

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(PreparedQueries) private readonly prepared: PreparedQueries,
  ) {}

  /**
   * The words a search requires, each counted from its postings (index alone) up to `cap` + 1,
   * rarest first; undefined when not every word is required (`or`, `-word`) or there is none
   * (only common words like "the").
   */
  async required(text: string, cap: number): Promise<RequiredWords | undefined> {
    // (No question mark in the SQL's text: the driver would take it for a parameter.)
    // Prepared: its plan (each word's postings counted from their index) does not depend on the words.
    const rows = await this.prepared.all<{ conjunctive: boolean; phrase: boolean; lexeme: string | null; postings: number }>(
      `with q as (select websearch_to_tsquery('english', ?) as q),
        words as (select distinct replace(m[1], '''''', '''') as lexeme from q, regexp_matches(q.q::text, '''(([^'']|'''')+)''', 'g') m)
        select (select q::text from q) !~ '[|!]' as conjunctive, (select q::text from q) ~ '<' as phrase, w.lexeme,
          (select count(*)::int from (select 1 from listing_term t where t.lexeme = w.lexeme ${limitOf(cap + 1)}) p) as postings
        from (select 1) one left join words w on true`,
      [text],
      'replica',
    );
    if (!rows[0]?.conjunctive || rows.some((row) => row.lexeme === null)) return undefined;
    const words = rows.map((row) => ({ lexeme: row.lexeme as string, postings: row.postings }));
    return { words: (await this.rarestFirst(words)) as RequiredWords['words'], phrase: rows[0].phrase };
  }

  /**
   * The listings holding every one of these words (rarest first, as `required` gives them), within
   * the search's other filters where the postings hold them (`within`, ListingSearchSql.postingConditions),
   * counted up to `cap` + 1 through the rarest word's postings (newest first, by price over a price
   * range, or by grid square within a radius), each checked for the others' postings in the same
   * index (no listing is read). At most POSTINGS_PROBED are checked: undefined when that leaves the
   * count unknown (a rare pair of common words).
   */
  async countTogether([rarest, ...others]: RequiredWords['words'], cap: number, within?: PostingConditions): Promise<number | undefined> {
    const readBy = within?.readBy ?? 'publication';
    // The postings of a listing share its publication and price: the other words are probed by the
    // key of the index the rarest word's postings are read by (their primary key but by price).
    const key = readBy === 'price' ? 'price_pence' : 'published_at';
    const probes = others
      // A probe per posting (a subquery with a limit: PostgreSQL would rather hash every posting of the other word).
      .map(() => `(select true from listing_term o where o.lexeme = ? and o.${key} = t.${key} and o.listing_id = t.listing_id limit 1)`)
      .join(' and ');
    const conditions = [{ sql: 't.lexeme = ?', params: [rarest.lexeme] }, ...(within?.where ?? [])];
    const order = {
      price: 'order by t.price_pence, t.listing_id',
      publication: 'order by t.published_at desc, t.listing_id desc',
      place: '',
    }[readBy];
    const [row] = await this.prepared.bound<{ matches: number; probed: number }>(
      `with probed as materialized (select t.listing_id, t.${key} from listing_term t
          where ${conditions.map((condition) => `(${condition.sql})`).join(' and ')} ${order} limit ?)
        select (select count(*)::int from (select 1 from probed t where ${probes || 'true'} limit ?) m) as matches,
          (select count(*)::int from probed) as probed`,
      [...conditions.flatMap((condition) => condition.params), POSTINGS_PROBED, ...others.map((word) => word.lexeme), cap + 1],
      'replica',
    );
    const matches = row?.matches ?? 0;
    // Enough to say "1,000+", or every posting of the rarest word (within the filters) was checked.
    return matches > cap || (row?.probed ?? 0) < POSTINGS_PROBED ? matches : undefined;
  }

  /**
   * Rarest first: by postings (counted only up to a cap), then by share of all postings where
   * PostgreSQL's statistics know it (its hundred commonest words); a word they do not list is
   * rarer than those. A single word needs no statistics.
   */
  private async rarestFirst(words: RequiredWord[]): Promise<RequiredWord[]> {
    if (words.length < 2) return words;
    if (!this.shares || Date.now() - this.shares.at > WORD_SHARES_MS) {
      const rows = await this.em.getConnection('read').execute<Array<{ lexeme: string; share: number }>>(
        `select m.lexeme, m.share from pg_stats s, unnest(s.most_common_vals::text::text[], s.most_common_freqs) as m(lexeme, share)
          where s.tablename = 'listing_term' and s.attname = 'lexeme'`,
      );
      this.shares = { at: Date.now(), byWord: new Map(rows.map((row) => [row.lexeme, Number(row.share)])) };
    }
    const { byWord } = this.shares;
    return [...words].sort((a, b) => a.postings - b.postings || (byWord.get(a.lexeme) ?? 0) - (byWord.get(b.lexeme) ?? 0));
  }
}
