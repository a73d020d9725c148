import { Migration } from '@mikro-orm/migrations';
import { fieldIndexDropSql, fieldIndexSql } from '../modules/listings/field-indexes.js';

/** The category fields search filtered on when this was written (field-indexes.ts makes their indexes). */
const FILTERED_FIELDS = [
  'make',
  'year',
  'hours',
  'condition',
  'cesar',
  'species',
  'age_months',
  'head_count',
  'pedigree',
  'tb_status',
  'pre_movement_test',
  'bvd',
  'johnes',
  'health_schemes',
  'organic',
  'acres',
  'tenure',
  'alc_grade',
  'soil',
  'designations',
  'env_scheme_list',
  'quantity',
  'seed_category',
  'germination',
  'trade',
  'coverage_miles',
];

/**
 * Every filterable category field's index and statistics, from the field declarations (the index
 * plan, field-indexes.ts): browse by TB status, acres, a designation... then reads a page and counts
 * up to its cap through the field's own index, at a million listings, instead of every listing of
 * the category. A field declared later gets its own in a migration that names it
 * (`fieldIndexSql(['key'])`); field-indexes.spec fails until one does.
 */
export class Migration20261126160000_field_indexes extends Migration {
  override name = 'Migration20261126160000_field_indexes';

  override up(): void | Promise<void> {
    // Livestock newest first with a bound on the price a head ("up to £120 a head"): the bound is
    // checked on the index's entries, so only the page's listings are read from the table (walking
    // the category's newest-first index read a thousand listings for a page when one in fifty matched).
    this.addSql(`create index "listing_price_per_head_newest_index" on "listing"
      ("status", "category_id", "published_at", "id", (coalesce(listing_price_in_unit("price_pence", "price_unit", "attributes", 'per-head'), 9007199254740991)))
      where "category_id" = 3;`); // livestock
    for (const sql of fieldIndexSql(FILTERED_FIELDS)) this.addSql(`${sql};`);
  }

  override down(): void | Promise<void> {
    for (const sql of fieldIndexDropSql(FILTERED_FIELDS)) this.addSql(`${sql};`);
    this.addSql(`drop index "listing_price_per_head_newest_index";`);
  }
}
