import { Migration } from '@mikro-orm/migrations';

/**
 * Wanted ads: a listing of type "wanted" carries what its buyer seeks as a stored search
 * (`wanted_search`, SearchQuery's stored form), and `wanted_match` remembers each listing a
 * wanted ad's owner was told about, so they are told once per listing.
 */
export class Migration20261126113100_wanted_ads extends Migration {
  override name = 'Migration20261126113100_wanted_ads';

  override up(): void | Promise<void> {
    this.addSql(`alter table "listing" drop constraint if exists "listing_type_check";`);
    this.addSql(`alter table "listing" add constraint "listing_type_check" check ("type" in ('sale', 'rent', 'wanted'));`);
    this.addSql(`alter table "listing" add column "wanted_search" jsonb null;`);
    this.addSql(`create table "wanted_match" (
      "listing_id" uuid not null references "listing" ("id") on delete cascade,
      "wanted_id" uuid not null references "listing" ("id") on delete cascade,
      "matched_at" timestamptz not null default now(),
      primary key ("listing_id", "wanted_id")
    );`);
    this.addSql(`create index "wanted_match_wanted_id_index" on "wanted_match" ("wanted_id");`);
    // A new listing's candidates: the live wanted ads of its category up to its price (a small share of listings).
    this.addSql(
      `create index "listing_live_wanted_index" on "listing" ("category_id", "price_pence") where "type" = 'wanted' and "status" = 'live';`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "wanted_match";`);
    this.addSql(`drop index if exists "listing_live_wanted_index";`);
    this.addSql(`delete from "listing" where "type" = 'wanted';`);
    this.addSql(`alter table "listing" drop column if exists "wanted_search";`);
    this.addSql(`alter table "listing" drop constraint if exists "listing_type_check";`);
    this.addSql(`alter table "listing" add constraint "listing_type_check" check ("type" in ('sale', 'rent'));`);
  }
}
