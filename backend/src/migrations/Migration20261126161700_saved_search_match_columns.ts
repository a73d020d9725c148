import { Migration } from '@mikro-orm/migrations';

/**
 * Saved searches keep every filter of their query in columns (search-percolator's MatchColumns), so a new
 * listing is pruned, confirmed and recorded against all of them in one statement. Searches stored before
 * have no columns yet (match_version null): SavedSearchesService.prepare works them out within a minute.
 */
export class Migration20261126161700_saved_search_match_columns extends Migration {
  override name = 'Migration20261126161700_saved_search_match_columns';

  override up(): void | Promise<void> {
    this.addSql(`alter table "saved_search"
      add column "match_version" int null,
      add column "rent_subcategory" text null,
      add column "price_unit" text null,
      add column "unit_min_price_pence" bigint null,
      add column "unit_max_price_pence" bigint null,
      add column "near_latitude" float8 null,
      add column "near_longitude" float8 null,
      add column "near_cosine" float8 null,
      add column "radius_metres" float8 null,
      add column "box_south" float8 null,
      add column "box_north" float8 null,
      add column "box_west" float8 null,
      add column "box_east" float8 null,
      add column "words" text null,
      add column "words_query" tsquery generated always as (websearch_to_tsquery('english', words)) stored,
      add column "verified_only" boolean not null default false,
      add column "featured_only" boolean not null default false,
      add column "posted_within_days" int null,
      add column "attribute_ranges" jsonb null,
      add column "attribute_matches" jsonb null;`);
    this.addSql(`create index "saved_search_unprepared_index" on "saved_search" ("id") where "match_version" is null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "saved_search_unprepared_index";`);
    this.addSql(`alter table "saved_search" drop column "match_version", drop column "rent_subcategory", drop column "price_unit",
      drop column "unit_min_price_pence", drop column "unit_max_price_pence", drop column "near_latitude", drop column "near_longitude",
      drop column "near_cosine", drop column "radius_metres", drop column "box_south", drop column "box_north", drop column "box_west",
      drop column "box_east", drop column "words_query", drop column "words", drop column "verified_only", drop column "featured_only",
      drop column "posted_within_days", drop column "attribute_ranges", drop column "attribute_matches";`);
  }
}
