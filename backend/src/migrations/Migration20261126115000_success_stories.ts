import { Migration } from '@mikro-orm/migrations';

/** Success stories told by members after a deal, approved by staff in the inbox before they are shown (issue 23 §1). */
export class Migration20261126115000_success_stories extends Migration {
  override name = 'Migration20261126115000_success_stories';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "success_story" ("id" uuid not null, "author_id" uuid not null, "story" text not null, "naming" text check ("naming" in ('full-name', 'first-name', 'anonymous')) not null, "deal_label" varchar(150) not null, "status" text check ("status" in ('pending', 'approved', 'declined')) not null default 'pending', "decided_at" timestamptz null, "decline_reason" text null, "created_at" timestamptz not null, "read_at" timestamptz null, "archived_at" timestamptz null, "assigned_to_id" uuid null, primary key ("id"));`,
    );
    this.addSql(`create index "success_story_author_id_index" on "success_story" ("author_id");`);
    this.addSql(`create index "success_story_status_decided_at_id_index" on "success_story" ("status", "decided_at", "id");`);
    this.addSql(`create index "success_story_created_at_index" on "success_story" ("created_at");`);
    this.addSql(
      `alter table "success_story" add constraint "success_story_author_id_foreign" foreign key ("author_id") references "app_user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "success_story" cascade;`);
  }
}
