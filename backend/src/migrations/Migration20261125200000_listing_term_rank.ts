import { Migration } from '@mikro-orm/migrations';
import { termSync } from './listing-term-sync.js';

/**
 * Each posting carries its listing's relevance to that one word (ts_rank_cd, as a search for the
 * word alone ranks it), with an index by word and relevance. A one-word search is then ranked over
 * all its matches straight from the index, most relevant first and the newest first among equals;
 * before, it ranked only the newest 250 matches, reading each one's listing to rank it.
 *
 * The postings are written again (as when they were first made, before their key exists: building
 * the indexes once is several times faster than keeping them row by row).
 */
export class Migration20261125200000_listing_term_rank extends Migration {
  override name = 'Migration20261125200000_listing_term_rank';

  override up(): void | Promise<void> {
    // The word as a query of that word alone: quoted, so that no character in it is read as an operator.
    this.addSql(`create function listing_term_rank(vector tsvector, lexeme text) returns numeric
      language sql immutable parallel safe
      return round(ts_rank_cd(vector, ('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || '''')::tsquery, 1)::numeric, 6);`);
    this.addSql(`drop table listing_term;`);
    this.addSql(
      `create table "listing_term" ("lexeme" text not null, "published_at" timestamptz not null, "listing_id" uuid not null, "rank" numeric not null);`,
    );
    this.addSql(
      `insert into listing_term (lexeme, published_at, listing_id, rank)
        select w.lexeme, l.published_at, l.id, listing_term_rank(l.search_vector, w.lexeme)
        from listing l cross join unnest(tsvector_to_array(l.search_vector)) w(lexeme) where l.status = 'live';`,
    );
    this.addSql(`alter table "listing_term" add primary key ("lexeme", "published_at", "listing_id");`);
    this.addSql(`create index "listing_term_by_rank" on "listing_term" ("lexeme", "rank" desc, "published_at" desc, "listing_id" desc);`);
    this.addSql(termSync(true));
  }

  override down(): void | Promise<void> {
    this.addSql(termSync(false));
    this.addSql(`drop index if exists "listing_term_by_rank";`);
    this.addSql(`alter table "listing_term" drop column "rank";`);
    this.addSql(`drop function if exists listing_term_rank(tsvector, text);`);
  }
}
