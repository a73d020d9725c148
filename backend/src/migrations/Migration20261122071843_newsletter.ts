import { Migration } from '@mikro-orm/migrations';

export class Migration20261122071843_newsletter extends Migration {
  override name = 'Migration20261122071843_newsletter';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "newsletter_subscription" ("id" uuid not null, "email" varchar(254) not null, "status" text not null default 'pending', "confirm_token_hash" varchar(64) null, "confirm_expires_at" timestamptz null, "unsubscribe_token" varchar(64) not null, "user_id" uuid null, "requested_at" timestamptz not null, "confirmed_at" timestamptz null, "unsubscribed_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "newsletter_subscription" add constraint "newsletter_subscription_email_unique" unique ("email");`);
    this.addSql(
      `alter table "newsletter_subscription" add constraint "newsletter_subscription_confirm_token_hash_unique" unique ("confirm_token_hash");`,
    );
    this.addSql(
      `alter table "newsletter_subscription" add constraint "newsletter_subscription_unsubscribe_token_unique" unique ("unsubscribe_token");`,
    );
    this.addSql(`create index "newsletter_subscription_user_id_index" on "newsletter_subscription" ("user_id");`);
    this.addSql(`create index "newsletter_subscription_requested_at_index" on "newsletter_subscription" ("requested_at");`);
    this.addSql(`create index "newsletter_subscription_unsubscribed_at_index" on "newsletter_subscription" ("unsubscribed_at");`);

    this.addSql(
      `alter table "newsletter_subscription" add constraint "newsletter_subscription_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "newsletter_subscription" add constraint "newsletter_subscription_status_check" check ("status" in ('pending', 'confirmed', 'unsubscribed'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "newsletter_subscription" cascade;`);
  }
}
