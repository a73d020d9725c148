import { Migration } from '@mikro-orm/migrations';

export class Migration20261126041000_over_eighteen extends Migration {
  override name = 'Migration20261126041000_over_eighteen';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add "over_eighteen_confirmed_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column "over_eighteen_confirmed_at";`);
  }
}
