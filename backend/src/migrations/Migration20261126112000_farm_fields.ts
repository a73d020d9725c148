import { Migration } from '@mikro-orm/migrations';

/**
 * Farm-grade listings: an index of the category fields' values, so a search by a choice or yes-no
 * (TB status, species, organic) finds its listings through containment (`attributes @> ...`), and
 * an index of booking requests by listing, so the dates a listing's accepted bookings hold are read
 * without a scan of every message.
 */
export class Migration20261126112000_farm_fields extends Migration {
  override name = 'Migration20261126112000_farm_fields';

  override up(): void | Promise<void> {
    this.addSql(`create index "listing_attributes_index" on "listing" using gin ("attributes" jsonb_path_ops);`);
    this.addSql(`create index "message_booking_listing_index" on "message" (("booking"->>'listing_id')) where "kind" = 'booking-request';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "message_booking_listing_index";`);
    this.addSql(`drop index "listing_attributes_index";`);
  }
}
