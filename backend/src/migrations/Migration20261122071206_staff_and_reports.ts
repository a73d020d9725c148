import { Migration } from '@mikro-orm/migrations';

export class Migration20261122071206_staff_and_reports extends Migration {
  override name = 'Migration20261122071206_staff_and_reports';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "inbox_reply" ("id" uuid not null, "item_kind" varchar(20) not null, "item_id" uuid not null, "staff_id" uuid not null, "staff_name" varchar(100) not null, "to_email" varchar(254) not null, "to_name" varchar(100) not null, "subject" varchar(250) not null, "body" text not null, "created_at" timestamptz not null, "sent_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "inbox_reply_item_kind_item_id_created_at_index" on "inbox_reply" ("item_kind", "item_id", "created_at");`);

    this.addSql(
      `create table "staff_action" ("id" uuid not null, "staff_id" uuid not null, "staff_name" varchar(100) not null, "action" varchar(40) not null, "target_kind" varchar(20) not null, "target_id" varchar(200) not null, "reason" text null, "created_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`create index "staff_action_created_at_index" on "staff_action" ("created_at");`);
    this.addSql(
      `create index "staff_action_target_kind_target_id_created_at_index" on "staff_action" ("target_kind", "target_id", "created_at");`,
    );

    this.addSql(
      `create table "report" ("id" uuid not null, "reporter_id" uuid not null, "target_kind" text not null, "target_id" uuid not null, "target_label" varchar(200) not null, "reason" text not null, "details" text null, "created_at" timestamptz not null, "read_at" timestamptz null, "archived_at" timestamptz null, "assigned_to_id" uuid null, primary key ("id"));`,
    );
    this.addSql(`create index "report_target_id_index" on "report" ("target_id");`);
    this.addSql(
      `create unique index "report_open_per_reporter_and_target" on "report" ("reporter_id", "target_kind", "target_id") where "archived_at" is null;`,
    );
    this.addSql(`create index "report_created_at_index" on "report" ("created_at");`);

    this.addSql(
      `alter table "contact_message" add "read_at" timestamptz null, add "archived_at" timestamptz null, add "assigned_to_id" uuid null;`,
    );

    this.addSql(`alter table "app_user" add "suspended_at" timestamptz null, add "suspension_reason" text null;`);

    this.addSql(
      `alter table "listing" add "removal_reason" text null, add "status_before_removal" text null, add "removed_with_seller" boolean not null default false;`,
    );
    this.addSql(
      `alter table "listing" add constraint "listing_status_before_removal_check" check ("status_before_removal" in ('live', 'sold', 'let', 'withdrawn', 'expired', 'removed'));`,
    );

    this.addSql(
      `alter table "report" add constraint "report_reporter_id_foreign" foreign key ("reporter_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "report" add constraint "report_target_kind_check" check ("target_kind" in ('listing', 'user'));`);
    this.addSql(
      `alter table "report" add constraint "report_reason_check" check ("reason" in ('prohibited-item', 'animal-welfare', 'scam', 'misleading', 'offensive', 'spam', 'other'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "inbox_reply" cascade;`);
    this.addSql(`drop table if exists "staff_action" cascade;`);
    this.addSql(`drop table if exists "report" cascade;`);

    this.addSql(`alter table "app_user" drop column "suspended_at", drop column "suspension_reason";`);

    this.addSql(`alter table "contact_message" drop column "read_at", drop column "archived_at", drop column "assigned_to_id";`);

    this.addSql(`alter table "listing" drop constraint "listing_status_before_removal_check";`);
    this.addSql(
      `alter table "listing" drop column "removal_reason", drop column "status_before_removal", drop column "removed_with_seller";`,
    );
  }
}
