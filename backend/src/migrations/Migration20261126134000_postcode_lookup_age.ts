import { Migration } from '@mikro-orm/migrations';

/** Postcode answers by age, so the hourly purge (PostcodeLookupPurgeJob) finds the old ones without reading the table. */
export class Migration20261126134000_postcode_lookup_age extends Migration {
  override name = 'Migration20261126134000_postcode_lookup_age';

  override up(): void | Promise<void> {
    this.addSql(`create index "postcode_lookup_looked_up_at_index" on "postcode_lookup" ("looked_up_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "postcode_lookup_looked_up_at_index";`);
  }
}
