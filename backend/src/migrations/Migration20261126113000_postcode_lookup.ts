import { Migration } from '@mikro-orm/migrations';

/**
 * postcodes.io's answers kept (PostcodesIoGeocoder): a postcode or outcode in its canonical form
 * ("EX20 1AB", "TA1"), found or not, with its place; how old an answer may be is decided when it is read.
 */
export class Migration20261126113000_postcode_lookup extends Migration {
  override name = 'Migration20261126113000_postcode_lookup';

  override up(): void | Promise<void> {
    this.addSql(`create table "postcode_lookup" (
      "code" varchar(8) not null primary key,
      "found" boolean not null,
      "name" varchar(120) null,
      "region" varchar(40) null,
      "latitude" double precision null,
      "longitude" double precision null,
      "looked_up_at" timestamptz not null
    );`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "postcode_lookup";`);
  }
}
