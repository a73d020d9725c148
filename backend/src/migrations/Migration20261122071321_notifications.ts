import { Migration } from '@mikro-orm/migrations';

export class Migration20261122071321_notifications extends Migration {
  override name = 'Migration20261122071321_notifications';

  override up(): void | Promise<void> {
    this.addSql(`create table "realtime_event_cursor" ("user_id" uuid not null, "last_seq" bigint not null, primary key ("user_id"));`);

    this.addSql(
      `create table "realtime_event" ("user_id" uuid not null, "seq" bigint not null, "type" varchar(60) not null, "payload" jsonb not null, "key" varchar(200) null, "created_at" timestamptz not null, primary key ("user_id", "seq"));`,
    );
    this.addSql(`create index "realtime_event_created_at_index" on "realtime_event" ("created_at");`);
    this.addSql(`alter table "realtime_event" add constraint "realtime_event_user_id_key_unique" unique ("user_id", "key");`);

    this.addSql(
      `create table "notification" ("id" uuid not null, "user_id" uuid not null, "kind" varchar(20) not null, "type" varchar(10) not null, "title" varchar(60) not null, "message" varchar(300) not null, "action_url" varchar(300) null, "read" boolean not null default false, "created_at" timestamptz not null, "source_key" varchar(100) not null, primary key ("id"));`,
    );
    this.addSql(`create index "notification_created_at_index" on "notification" ("created_at");`);
    this.addSql(`create index "notification_user_id_created_at_index" on "notification" ("user_id", "created_at");`);
    this.addSql(`alter table "notification" add constraint "notification_user_id_source_key_unique" unique ("user_id", "source_key");`);

    this.addSql(
      `create table "category_follow" ("user_id" uuid not null, "category" varchar(20) not null, "created_at" timestamptz not null, primary key ("user_id", "category"));`,
    );
    this.addSql(`create index "category_follow_category_index" on "category_follow" ("category");`);

    this.addSql(
      `alter table "notification" add constraint "notification_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "category_follow" add constraint "category_follow_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "realtime_event_cursor" cascade;`);
    this.addSql(`drop table if exists "realtime_event" cascade;`);
    this.addSql(`drop table if exists "notification" cascade;`);
    this.addSql(`drop table if exists "category_follow" cascade;`);
  }
}
