import { Migration } from '@mikro-orm/migrations';

export class Migration20261122032721_accounts extends Migration {
  override name = 'Migration20261122032721_accounts';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "app_user" ("id" uuid not null, "email" varchar(254) not null, "email_verified_at" timestamptz null, "password_hash" text null, "google_subject" varchar(255) null, "provider" text not null default 'password', "role" text not null default 'user', "full_name" varchar(100) not null, "phone" varchar(30) null, "location" varchar(100) null, "bio" varchar(500) null, "avatar_url" varchar(500) null, "profile_visible" boolean not null default true, "contact_visible" boolean not null default true, "listings_visible" boolean not null default true, "email_notifications" boolean not null default true, "push_notifications" boolean not null default true, "two_factor_secret" text null, "two_factor_enabled_at" timestamptz null, "two_factor_last_step" bigint null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "last_active_at" timestamptz not null, "deleted_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email");`);
    this.addSql(`alter table "app_user" add constraint "app_user_google_subject_unique" unique ("google_subject");`);
    this.addSql(`create index "app_user_last_active_at_index" on "app_user" ("last_active_at");`);

    this.addSql(
      `create table "user_session" ("id" uuid not null, "token_hash" varchar(64) not null, "user_id" uuid not null, "created_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, "user_agent" varchar(200) not null default '', "network" varchar(64) not null default '', "authenticated_at" timestamptz not null, primary key ("id"));`,
    );
    this.addSql(`alter table "user_session" add constraint "user_session_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "user_session_user_id_index" on "user_session" ("user_id");`);

    this.addSql(
      `create table "recovery_code" ("id" uuid not null, "user_id" uuid not null, "code_hash" varchar(64) not null, "used_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "recovery_code_user_id_index" on "recovery_code" ("user_id");`);

    this.addSql(
      `create table "login_challenge" ("id" uuid not null, "token_hash" varchar(64) not null, "user_id" uuid not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "failed_attempts" int not null default 0, primary key ("id"));`,
    );
    this.addSql(`alter table "login_challenge" add constraint "login_challenge_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "login_challenge_user_id_index" on "login_challenge" ("user_id");`);

    this.addSql(
      `create table "email_token" ("id" uuid not null, "token_hash" varchar(64) not null, "user_id" uuid not null, "purpose" text not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "used_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`alter table "email_token" add constraint "email_token_token_hash_unique" unique ("token_hash");`);
    this.addSql(`create index "email_token_user_id_index" on "email_token" ("user_id");`);

    this.addSql(`alter table "app_user" add constraint "app_user_provider_check" check ("provider" in ('password', 'google'));`);
    this.addSql(`alter table "app_user" add constraint "app_user_role_check" check ("role" in ('user', 'staff'));`);

    this.addSql(
      `alter table "user_session" add constraint "user_session_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "recovery_code" add constraint "recovery_code_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "login_challenge" add constraint "login_challenge_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );

    this.addSql(
      `alter table "email_token" add constraint "email_token_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete cascade;`,
    );
    this.addSql(
      `alter table "email_token" add constraint "email_token_purpose_check" check ("purpose" in ('verify-email', 'reset-password'));`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_session" drop constraint "user_session_user_id_foreign";`);
    this.addSql(`alter table "recovery_code" drop constraint "recovery_code_user_id_foreign";`);
    this.addSql(`alter table "login_challenge" drop constraint "login_challenge_user_id_foreign";`);
    this.addSql(`alter table "email_token" drop constraint "email_token_user_id_foreign";`);

    this.addSql(`drop table if exists "app_user" cascade;`);
    this.addSql(`drop table if exists "user_session" cascade;`);
    this.addSql(`drop table if exists "recovery_code" cascade;`);
    this.addSql(`drop table if exists "login_challenge" cascade;`);
    this.addSql(`drop table if exists "email_token" cascade;`);
  }
}
