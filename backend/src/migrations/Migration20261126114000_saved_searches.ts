import { Migration } from '@mikro-orm/migrations';

/**
 * Saved searches and their alerts. Each search keeps, beside its stored query, what prunes it when
 * a listing is matched against every search (its prune keys, under a GIN index, and the bounds it
 * needs); each (search, listing, occasion) it was told about is one row, so it is told once.
 */
export class Migration20261126114000_saved_searches extends Migration {
  override name = 'Migration20261126114000_saved_searches';

  override up(): void | Promise<void> {
    this.addSql(`create table "saved_search" (
      "id" uuid not null primary key,
      "user_id" uuid not null,
      "name" varchar(120) not null,
      "query" jsonb not null,
      "frequency" text not null default 'instant',
      "price_drops" boolean not null default true,
      "paused_at" timestamptz null,
      "unsubscribe_token" varchar(64) not null,
      "last_seen_at" timestamptz not null,
      "last_mailed_at" timestamptz null,
      "digest_due_at" timestamptz null,
      "prune_keys" text[] not null,
      "category_id" integer null,
      "listing_type" text null,
      "min_price_pence" bigint null,
      "max_price_pence" bigint null,
      "cells" integer[] null,
      "lexemes" text[] null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      constraint "saved_search_frequency_check" check (frequency in ('instant', 'daily', 'weekly', 'off')),
      constraint "saved_search_unsubscribe_token_unique" unique ("unsubscribe_token"),
      constraint "saved_search_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade);`);
    this.addSql(`create index "saved_search_user_index" on "saved_search" ("user_id", "created_at");`);
    this.addSql(`create index "saved_search_prune_index" on "saved_search" using gin ("prune_keys") where "paused_at" is null;`);
    this.addSql(`create index "saved_search_digest_index" on "saved_search" ("frequency", "digest_due_at") where "paused_at" is null;`);
    this.addSql(`create table "saved_search_match" (
      "saved_search_id" uuid not null,
      "listing_id" uuid not null,
      "occasion" varchar(40) not null,
      "price_pence" bigint not null,
      "matched_at" timestamptz not null,
      "mail_batch" uuid null,
      primary key ("saved_search_id", "listing_id", "occasion"),
      constraint "saved_search_match_saved_search_id_foreign" foreign key ("saved_search_id") references "saved_search" ("id") on delete cascade,
      constraint "saved_search_match_listing_id_foreign" foreign key ("listing_id") references "listing" ("id") on delete cascade);`);
    this.addSql(`create index "saved_search_match_listing_index" on "saved_search_match" ("listing_id");`);
    this.addSql(
      `create index "saved_search_match_unmailed_index" on "saved_search_match" ("saved_search_id", "matched_at") where "mail_batch" is null;`,
    );
    this.addSql(`create index "saved_search_match_batch_index" on "saved_search_match" ("mail_batch") where "mail_batch" is not null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table "saved_search_match";`);
    this.addSql(`drop table "saved_search";`);
  }
}
