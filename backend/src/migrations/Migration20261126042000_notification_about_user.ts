import { Migration } from '@mikro-orm/migrations';

/**
 * The person a notification names (the sender of a new message): when their account is deleted,
 * the notifications that name them go from everyone's bell.
 */
export class Migration20261126042000_notification_about_user extends Migration {
  override name = 'Migration20261126042000_notification_about_user';

  override up(): void | Promise<void> {
    this.addSql(`alter table "notification" add "about_user_id" uuid null;`);
    this.addSql(`create index "notification_about_user_id_index" on "notification" ("about_user_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "notification_about_user_id_index";`);
    this.addSql(`alter table "notification" drop column "about_user_id";`);
  }
}
