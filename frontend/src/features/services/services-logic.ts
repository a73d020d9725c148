import { PRICE_UNITS, VAT_OPTIONS } from '../../../../backend/src/contracts/listings';
import { formatPrice } from '../../lib/format';

export const SERVICES_EMPTY = 'No services listed yet.';

/** A listing's price as a card shows it: "£45 per day", "£1,200" (a total needs no unit), plus VAT when added. */
export function priceLabel(listing: { price: number; price_unit: string; vat: string }): string {
  const unit = listing.price_unit === 'total' ? undefined : PRICE_UNITS[listing.price_unit as keyof typeof PRICE_UNITS];
  const vat = listing.vat === 'plus-vat' ? VAT_OPTIONS['plus-vat'] : undefined;
  return [formatPrice(listing.price), unit, vat].filter(Boolean).join(' ');
}
