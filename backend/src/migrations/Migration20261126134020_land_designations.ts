import { Migration } from '@mikro-orm/migrations';

/** The conversion, as SQL (its spec runs it on listings written the old way). */
export const LAND_DESIGNATIONS_UP = `update "listing" set "attributes" = case
        when "chosen" = '{}' then "attributes" - 'sssi' - 'nvz'
        else ("attributes" - 'sssi' - 'nvz') || jsonb_build_object('designations', to_jsonb("chosen")) end
      from (select "id" as "listing_id", array_remove(array[
          case when "attributes" ->> 'sssi' = 'true' then 'sssi' end,
          case when "attributes" ->> 'nvz' = 'true' then 'nvz' end], null) as "chosen"
        from "listing" where jsonb_exists("attributes", 'sssi') or jsonb_exists("attributes", 'nvz')) as "old"
      where "listing"."id" = "old"."listing_id";`;

/**
 * Land's two yes-no designations (`sssi`, `nvz`) become one field of several choices,
 * `designations` (contracts/listings.ts), which holds others too (National Park, Green Belt...):
 * a listing that said yes to either keeps it as a choice; a no says nothing, as an empty field does.
 */
export class Migration20261126134020_land_designations extends Migration {
  override name = 'Migration20261126134020_land_designations';

  override up(): void | Promise<void> {
    this.addSql(LAND_DESIGNATIONS_UP);
  }

  override down(): void | Promise<void> {
    this.addSql(`update "listing" set "attributes" = ("attributes" - 'designations')
        || case when "attributes" -> 'designations' @> '["sssi"]' then '{"sssi": true}'::jsonb else '{}'::jsonb end
        || case when "attributes" -> 'designations' @> '["nvz"]' then '{"nvz": true}'::jsonb else '{}'::jsonb end
      where jsonb_exists("attributes", 'designations');`);
  }
}
