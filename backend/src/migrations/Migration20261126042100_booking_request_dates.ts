import { Migration } from '@mikro-orm/migrations';

/**
 * Booking requests sent before dates were written as the product shows them ("3 Mar 2027") get the
 * same text as new ones: previews, notifications and e-mails show a message's text as it is.
 */
export class Migration20261126042100_booking_request_dates extends Migration {
  override name = 'Migration20261126042100_booking_request_dates';

  override up(): void | Promise<void> {
    this.addSql(
      `update "message" set "content" = 'Booking request: ' || to_char(("booking"->>'from')::date, 'FMDD Mon YYYY')
         || ' to ' || to_char(("booking"->>'to')::date, 'FMDD Mon YYYY') || coalesce(E'\\n' || ("booking"->>'note'), '')
       where "kind" = 'booking-request' and "booking" is not null and "content" ~ '^Booking request: \\d{4}-\\d{2}-\\d{2} to ';`,
    );
  }

  override down(): void | Promise<void> {
    // The ISO text is not wanted back.
  }
}
