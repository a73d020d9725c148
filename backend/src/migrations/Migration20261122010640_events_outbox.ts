import { Migration } from '@mikro-orm/migrations';

export class Migration20261122010640_events_outbox extends Migration {
  override name = 'Migration20261122010640_events_outbox';

  override up(): void | Promise<void> {
    this.addSql(`alter table "contact_message" add "acknowledgement_due" boolean not null default true;`);
    this.addSql(`create index "contact_message_email_created_at_index" on "contact_message" ("email", "created_at");`);

    // The outbox now tracks each entry until its work is done (was: until handed to the queue).
    this.addSql(`drop index "outbox_job_published_at_created_at_index";`);
    this.addSql(`alter table "outbox_job" rename column "published_at" to "enqueued_at";`);
    this.addSql(
      `alter table "outbox_job" add "queue" varchar(50) not null default 'mail', add "leased_until" timestamptz null, add "completed_at" timestamptz null, add "failed_at" timestamptz null, add "attempts" int not null default 0, add "last_error" text null;`,
    );
    this.addSql(`alter table "outbox_job" alter column "queue" drop default;`);
    // Entries of the old single "contact.deliver" job not yet handed over become the two subscribers' entries.
    this.addSql(
      `insert into "outbox_job" ("id", "name", "queue", "payload", "created_at", "attempts")
       select gen_random_uuid(), s.name, 'mail',
              jsonb_build_object('id', o.id, 'name', 'contact.received', 'occurredAt', o.created_at, 'payload', o.payload),
              o.created_at, 0
         from "outbox_job" o cross join (values ('contact.notify-staff'), ('contact.acknowledge-sender')) as s(name)
        where o.name = 'contact.deliver' and o.enqueued_at is null;`,
    );
    this.addSql(`delete from "outbox_job" where "name" = 'contact.deliver' and "enqueued_at" is null;`);
    // What the old relay handed over was done as far as it could tell.
    this.addSql(`update "outbox_job" set "completed_at" = "enqueued_at" where "enqueued_at" is not null;`);
    this.addSql(`create index "outbox_job_completed_at_enqueued_at_index" on "outbox_job" ("completed_at", "enqueued_at");`);

    // Payloads too large for NOTIFY, for socket.io's PostgreSQL adapter (see infra/realtime/realtime-bus.ts).
    this.addSql(
      `create table if not exists "socket_io_attachments" ("id" bigserial unique, "created_at" timestamptz default now(), "payload" bytea);`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "contact_message_email_created_at_index";`);
    this.addSql(`alter table "contact_message" drop column "acknowledgement_due";`);

    this.addSql(`drop table if exists "socket_io_attachments";`);
    this.addSql(`drop index "outbox_job_completed_at_enqueued_at_index";`);
    this.addSql(
      `alter table "outbox_job" drop column "queue", drop column "leased_until", drop column "completed_at", drop column "failed_at", drop column "attempts", drop column "last_error";`,
    );
    this.addSql(`alter table "outbox_job" rename column "enqueued_at" to "published_at";`);
    this.addSql(`create index "outbox_job_published_at_created_at_index" on "outbox_job" ("published_at", "created_at");`);
  }
}
