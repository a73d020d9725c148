import { Migration } from '@mikro-orm/migrations';

/** A message whose recipient sees a safety notice beside it (issue 23 §5); older messages are not judged again. */
export class Migration20261126132000_message_safety_notice extends Migration {
  override name = 'Migration20261126132000_message_safety_notice';

  override up(): void | Promise<void> {
    this.addSql(`alter table "message" add "safety_notice" boolean not null default false;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "message" drop column "safety_notice";`);
  }
}
