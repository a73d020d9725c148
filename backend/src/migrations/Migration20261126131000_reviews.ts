import { Migration } from '@mikro-orm/migrations';

/**
 * Reviews after a real deal (issue 23 §3): one per reviewer, reviewed member and listing (a unique
 * index, so two at once leave one); the shown count and stars kept on the account row for cards;
 * a review can be reported.
 */
export class Migration20261126131000_reviews extends Migration {
  override name = 'Migration20261126131000_reviews';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "review" ("id" uuid not null, "reviewer_id" uuid null, "reviewed_id" uuid not null, "listing_id" uuid not null, "listing_title" varchar(150) not null, "conversation_id" uuid not null, "stars" smallint not null, "text" text not null, "created_at" timestamptz not null, "edited_at" timestamptz null, "reply" text null, "replied_at" timestamptz null, "reply_edited_at" timestamptz null, "hidden_at" timestamptz null, "hidden_reason" text null, primary key ("id"));`,
    );
    this.addSql(`create index "review_reviewer_id_index" on "review" ("reviewer_id");`);
    this.addSql(`create index "review_reviewed_id_created_at_id_index" on "review" ("reviewed_id", "created_at", "id");`);
    this.addSql(`alter table "review" add constraint "review_once_per_listing" unique ("reviewer_id", "reviewed_id", "listing_id");`);
    this.addSql(
      `alter table "review" add constraint "review_reviewer_id_foreign" foreign key ("reviewer_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "review" add constraint "review_reviewed_id_foreign" foreign key ("reviewed_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "app_user" add column "review_count" int not null default 0, add column "review_stars_total" int not null default 0;`,
    );
    this.addSql(`alter table "report" drop constraint "report_target_kind_check";`);
    this.addSql(`alter table "report" add constraint "report_target_kind_check" check ("target_kind" in ('listing', 'user', 'review'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "review" cascade;`);
    this.addSql(`alter table "app_user" drop column "review_count", drop column "review_stars_total";`);
    this.addSql(`delete from "report" where "target_kind" = 'review';`);
    this.addSql(`alter table "report" drop constraint "report_target_kind_check";`);
    this.addSql(`alter table "report" add constraint "report_target_kind_check" check ("target_kind" in ('listing', 'user'));`);
  }
}
