import { Migration } from '@mikro-orm/migrations';

/**
 * Seller details (issue 23 §2): private or trade, a trade seller's business name, company and VAT
 * numbers, when staff verified them; and the requests for that check, answered in the staff inbox.
 */
export class Migration20261126115100_seller_trust extends Migration {
  override name = 'Migration20261126115100_seller_trust';

  override up(): void | Promise<void> {
    this.addSql(
      `alter table "app_user" add "seller_type" text check ("seller_type" in ('private', 'trade')) null, add "business_name" varchar(100) null, add "company_number" varchar(8) null, add "vat_number" varchar(12) null, add "business_verified_at" timestamptz null;`,
    );
    this.addSql(
      `create table "business_verification" ("id" uuid not null, "seller_id" uuid not null, "business_name" varchar(100) not null, "company_number" varchar(8) null, "vat_number" varchar(12) null, "status" text check ("status" in ('pending', 'approved', 'declined')) not null default 'pending', "decided_at" timestamptz null, "decline_reason" text null, "created_at" timestamptz not null, "read_at" timestamptz null, "archived_at" timestamptz null, "assigned_to_id" uuid null, primary key ("id"));`,
    );
    this.addSql(`create index "business_verification_seller_id_index" on "business_verification" ("seller_id");`);
    this.addSql(`create index "business_verification_created_at_index" on "business_verification" ("created_at");`);
    this.addSql(
      `alter table "business_verification" add constraint "business_verification_seller_id_foreign" foreign key ("seller_id") references "app_user" ("id") on delete cascade;`,
    );
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "business_verification" cascade;`);
    this.addSql(
      `alter table "app_user" drop column "seller_type", drop column "business_name", drop column "company_number", drop column "vat_number", drop column "business_verified_at";`,
    );
  }
}
