import { PRICE_UNITS, VAT_OPTIONS } from '@contracts/listing-display';
import { formatPrice } from './format';

/** The unit and VAT words after a price, from the contracts ("per acre", "+ VAT"); "total" says nothing. */
export function priceQualifiers(unit: string, vat: string): string[] {
  const words: string[] = [];
  if (unit !== 'total' && unit in PRICE_UNITS) words.push(PRICE_UNITS[unit as keyof typeof PRICE_UNITS]);
  if (vat in VAT_OPTIONS) words.push(VAT_OPTIONS[vat as keyof typeof VAT_OPTIONS]);
  return words;
}

/** "£38,500 + VAT", "£120 per acre · No VAT": pounds, en-GB, no decimals, with unit and VAT. */
export function formatListingPrice(price: number, unit: string, vat: string): string {
  return [formatPrice(price), ...priceQualifiers(unit, vat)].join(' · ').replace(' · + VAT', ' + VAT');
}

/** "12.4 miles away" (one decimal under 10 miles, whole miles above). */
export function formatDistance(miles: number): string {
  if (miles < 1) return 'Less than a mile away';
  const rounded = miles < 10 ? Math.round(miles * 10) / 10 : Math.round(miles);
  return `${rounded.toLocaleString('en-GB')} ${rounded === 1 ? 'mile' : 'miles'} away`;
}

/** The year a member joined, for "Member since 2024". */
export function memberSinceYear(isoDate: string): string {
  const year = new Date(isoDate).getUTCFullYear();
  return Number.isNaN(year) ? '' : String(year);
}

/** At most `length` characters, cut at a word and ended with an ellipsis when shortened. */
export function excerpt(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
