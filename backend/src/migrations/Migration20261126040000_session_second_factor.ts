import { Migration } from '@mikro-orm/migrations';

export class Migration20261126040000_session_second_factor extends Migration {
  override name = 'Migration20261126040000_session_second_factor';

  override up(): void | Promise<void> {
    this.addSql(`alter table "user_session" add "second_factor_at" timestamptz null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "user_session" drop column "second_factor_at";`);
  }
}
