import { Migration } from '@mikro-orm/migrations';

export class Migration20261122034155_listings extends Migration {
  override name = 'Migration20261122034155_listings';

  override up(): void | Promise<void> {
    // Trigram similarity (spelling suggestions) and great-circle distance on an index (radius search).
    this.addSql(`create extension if not exists pg_trgm;`);
    this.addSql(`create extension if not exists cube;`);
    this.addSql(`create extension if not exists earthdistance;`);
    this.addSql(
      `create table "listing" ("id" uuid not null, "seller_id" uuid not null, "type" text not null, "category_id" int not null, "rent_subcategory" varchar(20) null, "title" varchar(100) not null, "description" text not null, "price_pence" bigint not null, "price_unit" varchar(20) not null default 'total', "vat" varchar(20) not null default 'no-vat', "location_text" varchar(120) not null, "place_id" varchar(20) null, "latitude" double precision not null, "longitude" double precision not null, "attributes" jsonb not null, "status" text not null default 'live', "featured" boolean not null default false, "views" int not null default 0, "saves_count" int not null default 0, "created_at" timestamptz not null, "updated_at" timestamptz not null, "published_at" timestamptz not null, "expires_at" timestamptz not null, "expiry_warned_at" timestamptz null, primary key ("id"));`,
    );
    // Full text, title weighted over description, in English so "tractors" finds "tractor".
    this.addSql(
      `alter table "listing" add column "search_vector" tsvector generated always as (setweight(to_tsvector('english', "title"), 'A') || setweight(to_tsvector('english', "description"), 'B')) stored;`,
    );
    this.addSql(`create index "listing_location_index" on "listing" using gist (ll_to_earth("latitude", "longitude"));`);
    this.addSql(`create index "listing_search_vector_index" on "listing" using gin ("search_vector");`);
    this.addSql(`create index "listing_status_expires_at_index" on "listing" ("status", "expires_at");`);
    this.addSql(`create index "listing_seller_id_status_index" on "listing" ("seller_id", "status");`);
    this.addSql(`create index "listing_status_featured_published_at_index" on "listing" ("status", "featured", "published_at");`);
    this.addSql(`create index "listing_status_views_id_index" on "listing" ("status", "views", "id");`);
    this.addSql(
      `create index "listing_status_category_id_price_pence_id_index" on "listing" ("status", "category_id", "price_pence", "id");`,
    );
    this.addSql(`create index "listing_status_price_pence_id_index" on "listing" ("status", "price_pence", "id");`);
    this.addSql(
      `create index "listing_status_category_id_published_at_id_index" on "listing" ("status", "category_id", "published_at", "id");`,
    );
    this.addSql(`create index "listing_status_published_at_id_index" on "listing" ("status", "published_at", "id");`);

    this.addSql(
      `create table "saved_listing" ("user_id" uuid not null, "listing_id" uuid not null, "created_at" timestamptz not null, primary key ("user_id", "listing_id"));`,
    );
    this.addSql(`create index "saved_listing_listing_id_index" on "saved_listing" ("listing_id");`);

    this.addSql(
      `alter table "listing" add constraint "listing_seller_id_foreign" foreign key ("seller_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "listing" add constraint "listing_category_id_foreign" foreign key ("category_id") references "category" ("id");`,
    );
    this.addSql(`alter table "listing" add constraint "listing_type_check" check ("type" in ('sale', 'rent'));`);
    this.addSql(
      `alter table "listing" add constraint "listing_status_check" check ("status" in ('live', 'sold', 'let', 'withdrawn', 'expired', 'removed'));`,
    );

    this.addSql(
      `alter table "saved_listing" add constraint "saved_listing_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "saved_listing" add constraint "saved_listing_listing_id_foreign" foreign key ("listing_id") references "listing" ("id") on update cascade on delete cascade;`,
    );

    // One row per listing, visitor (a daily keyed hash, never an address) and day: a view counts once a day.
    this.addSql(
      `create table "listing_view" ("listing_id" uuid not null references "listing" ("id") on delete cascade, "visitor" varchar(32) not null, "day" date not null, primary key ("listing_id", "visitor", "day"));`,
    );
    this.addSql(`create index "listing_view_day_index" on "listing_view" ("day");`);
    // Words of listing titles, for suggesting what a misspelt search meant.
    this.addSql(`create table "listing_search_word" ("word" varchar(30) not null, primary key ("word"));`);
    this.addSql(`create index "listing_search_word_trigram_index" on "listing_search_word" using gin ("word" gin_trgm_ops);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "listing_search_word" cascade;`);
    this.addSql(`drop table if exists "listing_view" cascade;`);
    this.addSql(`alter table "saved_listing" drop constraint "saved_listing_listing_id_foreign";`);

    this.addSql(`drop table if exists "listing" cascade;`);
    this.addSql(`drop table if exists "saved_listing" cascade;`);
  }
}
