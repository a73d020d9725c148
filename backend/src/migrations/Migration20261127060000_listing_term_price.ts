import { Migration } from '@mikro-orm/migrations';
import { termSync } from './listing-term-sync.js';

/**
 * Each posting carries its listing's price, with an index by word and price. Words sorted by price
 * (or within a price range) then walk that word's postings in price order, each posting a match;
 * before, they walked every listing in price order checking each for the words, and a word rare
 * among a range's prices read the whole range ("apple" between £100 and £500 by price: 0.34 s at a
 * million listings). A change of price writes the listing's postings again (listing_term_sync).
 *
 * The postings are copied with their listings' prices into a new table whose keys are built after
 * (several times faster than keeping them row by row, and no posting's rank is worked out again).
 */
export class Migration20261127060000_listing_term_price extends Migration {
  override name = 'Migration20261127060000_listing_term_price';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "listing_term_priced" ("lexeme" text not null, "published_at" timestamptz not null, "listing_id" uuid not null, "rank" numeric not null, "price_pence" bigint not null);`,
    );
    this.addSql(
      `insert into listing_term_priced (lexeme, published_at, listing_id, rank, price_pence)
        select t.lexeme, t.published_at, t.listing_id, t.rank, l.price_pence from listing_term t join listing l on l.id = t.listing_id;`,
    );
    this.addSql(`drop table listing_term;`);
    this.addSql(`alter table listing_term_priced rename to listing_term;`);
    this.addSql(`alter table "listing_term" add primary key ("lexeme", "published_at", "listing_id");`);
    this.addSql(`create index "listing_term_by_rank" on "listing_term" ("lexeme", "rank" desc, "published_at" desc, "listing_id" desc);`);
    this.addSql(`create index "listing_term_by_price" on "listing_term" ("lexeme", "price_pence", "listing_id");`);
    this.addSql(termSync(true, true));
  }

  override down(): void | Promise<void> {
    this.addSql(termSync(true));
    this.addSql(`drop index if exists "listing_term_by_price";`);
    this.addSql(`alter table "listing_term" drop column "price_pence";`);
  }
}
