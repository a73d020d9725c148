import { Migration } from '@mikro-orm/migrations';

/**
 * The grid square of each listing (about 8.6 miles a side in the UK), kept by PostgreSQL, and an
 * index of live listings by square and publication that holds the coordinates: a radius search
 * counts and walks the squares it covers from the index alone.
 */
export class Migration20261125163835_listing_geo_cells extends Migration {
  override name = 'Migration20261125163835_listing_geo_cells';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "listing" add "geo_cell" int generated always as (floor((latitude + 90) / 0.125)::integer * 10000 + floor((longitude + 180) / 0.2)::integer) stored null;`,
    );
    this.addSql(
      `create index "listing_geo_cell_index" on "listing" ("status", "geo_cell", "published_at", "id") include ("latitude", "longitude");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "listing_geo_cell_index";`);
    this.addSql(`alter table "listing" drop column "geo_cell";`);
  }
}
