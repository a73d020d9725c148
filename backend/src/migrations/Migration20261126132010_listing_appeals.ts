import { Migration } from '@mikro-orm/migrations';

/**
 * A hidden listing's owner may appeal once (issue 23 §5): the appeal is a staff inbox item; the
 * listing records when staff hid it and when they closed its case (until then it cannot be deleted).
 */
export class Migration20261126132010_listing_appeals extends Migration {
  override name = 'Migration20261126132010_listing_appeals';

  override up(): void | Promise<void> {
    this.addSql(`alter table "listing" add "removed_at" timestamptz null, add "removal_closed_at" timestamptz null;`);
    this.addSql(`update "listing" set "removed_at" = "updated_at" where "status" = 'removed' and not "removed_with_seller";`);
    this.addSql(
      `create table "listing_appeal" ("id" uuid not null, "listing_id" uuid not null, "owner_id" uuid not null, "text" text not null, "removal_reason" text not null, "status" text check ("status" in ('pending', 'approved', 'declined')) not null default 'pending', "decided_at" timestamptz null, "decline_reason" text null, "created_at" timestamptz not null, "read_at" timestamptz null, "archived_at" timestamptz null, "assigned_to_id" uuid null, primary key ("id"));`,
    );
    this.addSql(`alter table "listing_appeal" add constraint "listing_appeal_listing_id_unique" unique ("listing_id");`);
    this.addSql(`create index "listing_appeal_owner_id_index" on "listing_appeal" ("owner_id");`);
    this.addSql(`create index "listing_appeal_created_at_index" on "listing_appeal" ("created_at");`);
    this.addSql(
      `alter table "listing_appeal" add constraint "listing_appeal_listing_id_foreign" foreign key ("listing_id") references "listing" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "listing_appeal" add constraint "listing_appeal_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "listing_appeal" cascade;`);
    this.addSql(`alter table "listing" drop column "removed_at", drop column "removal_closed_at";`);
  }
}
