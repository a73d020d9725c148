import { Migration } from '@mikro-orm/migrations';

/**
 * A listing's price in another unit where its own quantity says (search-sql's priceInUnit): a lot
 * priced in total with its head count (livestock) or acres (land) has a price per head or per acre,
 * and the reverse. Immutable, so an index can hold it: livestock sorted by price per head walks
 * `listing_price_per_head_index` a page at a time. Listings with no price per head sort last.
 */
export class Migration20261126134010_price_in_unit extends Migration {
  override name = 'Migration20261126134010_price_in_unit';

  override up(): void | Promise<void> {
    this.addSql(`create function listing_price_in_unit(price_pence bigint, price_unit text, attributes jsonb, unit text) returns bigint
      language sql immutable parallel safe as $$
        select case
          when price_unit = unit then price_pence
          when unit = 'per-head' and price_unit = 'total' and jsonb_typeof(attributes -> 'head_count') = 'number'
            and (attributes ->> 'head_count')::numeric >= 1 then round(price_pence / (attributes ->> 'head_count')::numeric)::bigint
          when unit = 'total' and price_unit = 'per-head' and jsonb_typeof(attributes -> 'head_count') = 'number'
            then round(price_pence * (attributes ->> 'head_count')::numeric)::bigint
          when unit = 'per-acre' and price_unit = 'total' and jsonb_typeof(attributes -> 'acres') = 'number'
            and (attributes ->> 'acres')::numeric > 0 then round(price_pence / (attributes ->> 'acres')::numeric)::bigint
          when unit = 'total' and price_unit = 'per-acre' and jsonb_typeof(attributes -> 'acres') = 'number'
            then round(price_pence * (attributes ->> 'acres')::numeric)::bigint
        end
      $$;`);
    this.addSql(`create index "listing_price_per_head_index" on "listing"
      ("status", "category_id", (coalesce(listing_price_in_unit("price_pence", "price_unit", "attributes", 'per-head'), 9007199254740991)), "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "listing_price_per_head_index";`);
    this.addSql(`drop function listing_price_in_unit(bigint, text, jsonb, text);`);
  }
}
