import { Migration } from '@mikro-orm/migrations';

/**
 * Feedback moves from a status (new, read, archived) to the staff inbox's columns, like contact
 * messages. When it was read or archived was never recorded: the migration's time stands for it.
 */
export class Migration20261122081127_feedback_inbox extends Migration {
  override name = 'Migration20261122081127_feedback_inbox';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "feedback" add "read_at" timestamptz null, add "archived_at" timestamptz null, add "assigned_to_id" uuid null;`,
    );
    this.addSql(`update "feedback" set "read_at" = now() where "status" in ('read', 'archived');`);
    this.addSql(`update "feedback" set "archived_at" = now() where "status" = 'archived';`);
    this.addSql(`alter table "feedback" drop constraint "feedback_status_check";`);
    this.addSql(`alter table "feedback" drop column "status";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "feedback" add "status" text not null default 'new';`);
    this.addSql(
      `update "feedback" set "status" = case when "archived_at" is not null then 'archived' when "read_at" is not null then 'read' else 'new' end;`,
    );
    this.addSql(`alter table "feedback" add constraint "feedback_status_check" check ("status" in ('new', 'read', 'archived'));`);
    this.addSql(`alter table "feedback" drop column "read_at", drop column "archived_at", drop column "assigned_to_id";`);
  }
}
