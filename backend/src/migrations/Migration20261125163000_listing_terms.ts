import { Migration } from '@mikro-orm/migrations';
import { termSync } from './listing-term-sync.js';

/**
 * Word postings for search: one row per word (as full text stems it) of each live listing, with the
 * listing's publication time, in a b-tree. A word's listings then come newest first straight from
 * the index, and a word's matches are counted from the index alone; the GIN index can do neither
 * (it hands out every match unordered, and a count reads each matching row). PostgreSQL keeps the
 * rows with statement triggers on listing, so every writer (sellers, staff, jobs, bulk loads)
 * keeps them right; an update that changes no words, status or publication time (a view, a save)
 * rewrites nothing.
 */
export class Migration20261125163000_listing_terms extends Migration {
  override name = 'Migration20261125163000_listing_terms';

  override up(): void | Promise<void> {
    this.addSql(`create table "listing_term" ("lexeme" text not null, "published_at" timestamptz not null, "listing_id" uuid not null);`);
    // Filled before its key exists: building the index once is several times faster than keeping it row by row.
    this.addSql(
      `insert into listing_term (lexeme, published_at, listing_id)
        select distinct unnest(tsvector_to_array(search_vector)), published_at, id from listing where status = 'live';`,
    );
    this.addSql(`alter table "listing_term" add primary key ("lexeme", "published_at", "listing_id");`);
    this.addSql(termSync(false));
    this.addSql(
      `create trigger listing_term_insert after insert on listing referencing new table as new_rows
        for each statement execute function listing_term_sync();`,
    );
    this.addSql(
      `create trigger listing_term_update after update on listing referencing old table as old_rows new table as new_rows
        for each statement execute function listing_term_sync();`,
    );
    this.addSql(
      `create trigger listing_term_delete after delete on listing referencing old table as old_rows
        for each statement execute function listing_term_sync();`,
    );
    this.addSql(`create function listing_term_clear() returns trigger language plpgsql as $$
begin
  truncate listing_term;
  return null;
end $$;`);
    this.addSql(`create trigger listing_term_truncate after truncate on listing for each statement execute function listing_term_clear();`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop trigger if exists listing_term_insert on listing;`);
    this.addSql(`drop trigger if exists listing_term_update on listing;`);
    this.addSql(`drop trigger if exists listing_term_delete on listing;`);
    this.addSql(`drop trigger if exists listing_term_truncate on listing;`);
    this.addSql(`drop function if exists listing_term_clear();`);
    this.addSql(`drop function if exists listing_term_sync();`);
    this.addSql(`drop table if exists "listing_term";`);
  }
}
