import { Migration } from '@mikro-orm/migrations';

export class Migration20261122071133_feedback extends Migration {
  override name = 'Migration20261122071133_feedback';

  override up(): void | Promise<void> {
    this.addSql(
      `create table "feedback" ("id" uuid not null, "name" varchar(100) not null, "email" varchar(254) not null, "category" text not null, "rating" smallint not null, "message" text not null, "user_id" uuid null, "created_at" timestamptz not null, "status" text not null default 'new', "staff_notified_at" timestamptz null, primary key ("id"));`,
    );
    this.addSql(`create index "feedback_user_id_index" on "feedback" ("user_id");`);
    this.addSql(`create index "feedback_created_at_index" on "feedback" ("created_at");`);

    this.addSql(
      `alter table "feedback" add constraint "feedback_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on delete set null;`,
    );
    this.addSql(
      `alter table "feedback" add constraint "feedback_category_check" check ("category" in ('general-feedback', 'bug-report', 'feature-request', 'user-experience', 'performance-issue', 'other'));`,
    );
    this.addSql(`alter table "feedback" add constraint "feedback_status_check" check ("status" in ('new', 'read', 'archived'));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "feedback" cascade;`);
  }
}
