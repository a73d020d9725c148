import { Migration } from '@mikro-orm/migrations';
import { termSync } from './listing-term-sync.js';

/**
 * Each posting carries what its listing is most often filtered by beside words: price, category and
 * place (coordinates and grid square), with an index by word and price and one by word and grid
 * square (holding the rest). Then:
 * - words sorted by price (or within a price range) walk that word's postings in price order, each
 *   posting a match, where they walked every listing in price order checking each for the words (a
 *   word rare among a range's prices read the whole range: "apple" between £100 and £500 by price,
 *   0.34 s at a million listings);
 * - words within a radius (with a category, a price range, a date) are counted and gathered from the
 *   word's postings in the radius's grid squares, index alone, where the text index and the grid
 *   index were each read over the whole word and the whole radius and intersected (50 to 100 ms).
 * A change of any of them writes the listing's postings again (listing_term_sync).
 *
 * The postings are copied with their listings' values into a new table whose keys are built after
 * (several times faster than keeping them row by row, and no posting's rank is worked out again).
 */
export class Migration20261127060000_listing_term_filters extends Migration {
  override name = 'Migration20261127060000_listing_term_filters';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "listing_term_filtered" ("lexeme" text not null, "published_at" timestamptz not null, "listing_id" uuid not null, "rank" numeric not null,
        "price_pence" bigint not null, "category_id" int not null, "latitude" double precision not null, "longitude" double precision not null, "geo_cell" int null);`,
    );
    this.addSql(
      `insert into listing_term_filtered (lexeme, published_at, listing_id, rank, price_pence, category_id, latitude, longitude, geo_cell)
        select t.lexeme, t.published_at, t.listing_id, t.rank, l.price_pence, l.category_id, l.latitude, l.longitude, l.geo_cell
        from listing_term t join listing l on l.id = t.listing_id;`,
    );
    this.addSql(`drop table listing_term;`);
    this.addSql(`alter table listing_term_filtered rename to listing_term;`);
    this.addSql(`alter table "listing_term" add primary key ("lexeme", "published_at", "listing_id");`);
    this.addSql(`create index "listing_term_by_rank" on "listing_term" ("lexeme", "rank" desc, "published_at" desc, "listing_id" desc);`);
    this.addSql(`create index "listing_term_by_price" on "listing_term" ("lexeme", "price_pence", "listing_id");`);
    this.addSql(
      `create index "listing_term_by_cell" on "listing_term" ("lexeme", "geo_cell", "listing_id")
        include ("latitude", "longitude", "category_id", "price_pence", "published_at");`,
    );
    this.addSql(termSync(true, true));
  }

  override down(): void | Promise<void> {
    this.addSql(termSync(true));
    this.addSql(`drop index if exists "listing_term_by_cell";`);
    this.addSql(`drop index if exists "listing_term_by_price";`);
    this.addSql(
      `alter table "listing_term" drop column "price_pence", drop column "category_id", drop column "latitude", drop column "longitude", drop column "geo_cell";`,
    );
  }
}
