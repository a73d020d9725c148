import { Migration } from '@mikro-orm/migrations';

/**
 * One appeal per hiding, not per listing (issue 23 §5): an appeal records the hiding it is about (the
 * listing's removed_at then), so a listing restored and hidden again can be appealed again.
 */
export class Migration20261126135510_appeal_per_hiding extends Migration {
  override name = 'Migration20261126135510_appeal_per_hiding';

  override up(): void | Promise<void> {
    this.addSql(`alter table "listing_appeal" add "hidden_at" timestamptz null;`);
    this.addSql(
      `update "listing_appeal" a set "hidden_at" = coalesce((select l."removed_at" from "listing" l where l."id" = a."listing_id" and l."removed_at" <= a."created_at"), a."created_at");`,
    );
    this.addSql(`alter table "listing_appeal" alter column "hidden_at" set not null;`);
    this.addSql(`alter table "listing_appeal" drop constraint "listing_appeal_listing_id_unique";`);
    this.addSql(
      `alter table "listing_appeal" add constraint "listing_appeal_listing_id_hidden_at_unique" unique ("listing_id", "hidden_at");`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "listing_appeal" drop constraint "listing_appeal_listing_id_hidden_at_unique";`);
    this.addSql(
      `delete from "listing_appeal" a using "listing_appeal" b where a."listing_id" = b."listing_id" and a."created_at" < b."created_at";`,
    );
    this.addSql(`alter table "listing_appeal" add constraint "listing_appeal_listing_id_unique" unique ("listing_id");`);
    this.addSql(`alter table "listing_appeal" drop column "hidden_at";`);
  }
}
