import { Migration } from '@mikro-orm/migrations';

export class Migration20261122071552_messaging extends Migration {
  override name = 'Migration20261122071552_messaging';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "conversation" ("id" uuid not null, "starter_id" uuid not null, "owner_id" uuid not null, "listing_id" uuid null, "title" varchar(100) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "starter_hidden_at" timestamptz null, "owner_hidden_at" timestamptz null, "starter_cleared_at" timestamptz null, "owner_cleared_at" timestamptz null, "starter_reminded_at" timestamptz null, "owner_reminded_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "conversation_owner_id_updated_at_index" on "conversation" ("owner_id", "updated_at");`);
    this.addSql(`create index "conversation_starter_id_updated_at_index" on "conversation" ("starter_id", "updated_at");`);
    this.addSql(
      `alter table "conversation" add constraint "conversation_starter_id_owner_id_listing_id_unique" unique ("starter_id", "owner_id", "listing_id");`,
    );

    this.addSql(
      `create table "message" ("id" uuid not null, "conversation_id" uuid not null, "sender_id" uuid not null, "recipient_id" uuid not null, "kind" text not null default 'text', "content" text not null, "booking" jsonb null, "read_at" timestamptz null, "created_at" timestamptz not null, "reminder_handled_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(
      `create index "message_unread_reminder_index" on "message" ("created_at") where "read_at" is null and "reminder_handled_at" is null;`,
    );
    this.addSql(`create index "message_sender_id_index" on "message" ("sender_id");`);
    this.addSql(`create index "message_recipient_id_read_at_index" on "message" ("recipient_id", "read_at");`);
    this.addSql(`create index "message_conversation_id_created_at_id_index" on "message" ("conversation_id", "created_at", "id");`);

    this.addSql(
      `create table "user_block" ("blocker_id" uuid not null, "blocked_id" uuid not null, "created_at" timestamptz not null, primary key ("blocker_id", "blocked_id"));`,
    );
    this.addSql(`create index "user_block_blocked_id_index" on "user_block" ("blocked_id");`);

    this.addSql(
      `alter table "conversation" add constraint "conversation_starter_id_foreign" foreign key ("starter_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "conversation" add constraint "conversation_owner_id_foreign" foreign key ("owner_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "message" add constraint "message_conversation_id_foreign" foreign key ("conversation_id") references "conversation" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "message" add constraint "message_sender_id_foreign" foreign key ("sender_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "message" add constraint "message_recipient_id_foreign" foreign key ("recipient_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(`alter table "message" add constraint "message_kind_check" check ("kind" in ('text', 'booking-request'));`);

    this.addSql(
      `alter table "user_block" add constraint "user_block_blocker_id_foreign" foreign key ("blocker_id") references "app_user" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "user_block" add constraint "user_block_blocked_id_foreign" foreign key ("blocked_id") references "app_user" ("id") on update cascade on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "message" drop constraint "message_conversation_id_foreign";`);

    this.addSql(`drop table if exists "conversation" cascade;`);
    this.addSql(`drop table if exists "message" cascade;`);
    this.addSql(`drop table if exists "user_block" cascade;`);
  }
}
