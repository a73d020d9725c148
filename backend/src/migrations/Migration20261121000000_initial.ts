import { Migration } from '@mikro-orm/migrations';

/** Categories (with the six of the spec), contact messages and the job outbox. */
export class Migration20261121000000Initial extends Migration {
  override up(): void {
    this.addSql(`create table "category" ("id" serial primary key, "name" varchar(100) not null, "slug" varchar(100) not null);`);
    this.addSql(`alter table "category" add constraint "category_slug_unique" unique ("slug");`);
    this.addSql(
      `insert into "category" ("id", "name", "slug") values
        (1, 'Land', 'land'), (2, 'Equipment', 'equipment'), (3, 'Livestock', 'livestock'),
        (4, 'Seeds & Plants', 'seeds-plants'), (5, 'Services', 'services'), (6, 'Rentals', 'rentals');`,
    );
    this.addSql(`select setval(pg_get_serial_sequence('category', 'id'), 6);`);

    this.addSql(
      `create table "contact_message" ("id" uuid not null, "name" varchar(100) not null, "email" varchar(254) not null, "subject" varchar(200) not null, "message" text not null, "client_ip" varchar(64) not null, "created_at" timestamptz not null, "staff_notified_at" timestamptz null, "acknowledged_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "contact_message_client_ip_created_at_index" on "contact_message" ("client_ip", "created_at");`);

    this.addSql(
      `create table "outbox_job" ("id" uuid not null, "name" varchar(100) not null, "payload" jsonb not null, "created_at" timestamptz not null, "published_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "outbox_job_published_at_created_at_index" on "outbox_job" ("published_at", "created_at");`);
  }

  override down(): void {
    this.addSql(`drop table if exists "outbox_job" cascade;`);
    this.addSql(`drop table if exists "contact_message" cascade;`);
    this.addSql(`drop table if exists "category" cascade;`);
  }
}
