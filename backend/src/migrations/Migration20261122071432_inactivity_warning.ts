import { Migration } from '@mikro-orm/migrations';

export class Migration20261122071432_inactivity_warning extends Migration {
  override name = 'Migration20261122071432_inactivity_warning';

  override up(): void | Promise<void> {
    this.addSql(`alter table "app_user" add "inactivity_warned_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "app_user" drop column "inactivity_warned_at";`);
  }
}
