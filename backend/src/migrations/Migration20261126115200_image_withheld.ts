import { Migration } from '@mikro-orm/migrations';

/** Images of a listing staff hid are withheld: /media stops serving them at once (issue 23 §5). */
export class Migration20261126115200_image_withheld extends Migration {
  override name = 'Migration20261126115200_image_withheld';

  override up(): void | Promise<void> {
    this.addSql(`alter table "image" add "withheld_at" timestamptz null;`);
    this.addSql(`update "image" set "withheld_at" = now() where "listing_id" in (select "id" from "listing" where "status" = 'removed');`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "image" drop column "withheld_at";`);
  }
}
