/**
 * What a listing card needs to show a listing: the price's unit and VAT words and how a price and a
 * distance are written (the site's cards and pages, the alert e-mails and the bell alike), and the
 * home page's featured count. Kept apart from listings.ts (the category fields and their checks) because every
 * visitor page that shows cards loads this, and must stay light.
 */

/** What the price is for. Rentals are priced per period; farm rents per acre or per head as well. */
export const PRICE_UNITS = {
  total: 'total',
  'per-head': 'per head',
  'per-acre': 'per acre',
  'per-tonne': 'per tonne',
  'per-bag': 'per bag',
  'per-hour': 'per hour',
  'per-job': 'per job',
  'per-day': 'per day',
  'per-week': 'per week',
  'per-month': 'per month',
  'per-season': 'per season',
  'per-acre-season': 'per acre per season',
  'per-acre-year': 'per acre per year',
  'per-head-week': 'per head per week',
} as const;
export type PriceUnit = keyof typeof PRICE_UNITS;

export const VAT_OPTIONS = { included: 'VAT included', 'plus-vat': '+ VAT', 'no-vat': 'No VAT' } as const;
export type VatOption = keyof typeof VAT_OPTIONS;

export const FEATURED_LIMIT = 6;

/**
 * Pounds with `decimals` pence digits. Each formatter is made when first used, not when a page's script loads: it
 * costs a phone tens of milliseconds of blocked main thread (ICU data), on pages that may show no price at all.
 */
const poundsFormats = new Map<number, Intl.NumberFormat>();
function pounds(decimals: 0 | 2 = 0): Intl.NumberFormat {
  let format = poundsFormats.get(decimals);
  if (!format) {
    format = new Intl.NumberFormat('en-GB', {
      style: 'currency',
      currency: 'GBP',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    poundsFormats.set(decimals, format);
  }
  return format;
}

/** A price in whole pounds, e.g. 12500 → "£12,500". */
export function formatPounds(amount: number): string {
  return pounds().format(amount);
}

/** The unit and VAT words after a price ("per acre", "+ VAT"); "total" says nothing. */
export function priceQualifiers(unit: string, vat: string): string[] {
  const words: string[] = [];
  if (unit !== 'total' && unit in PRICE_UNITS) words.push(PRICE_UNITS[unit as PriceUnit]);
  if (vat in VAT_OPTIONS) words.push(VAT_OPTIONS[vat as VatOption]);
  return words;
}

/** "£38,500 + VAT", "£120 · per acre · No VAT": pounds, en-GB, no decimals, with unit and VAT. */
export function formatListingPrice(price: number, unit: string, vat: string): string {
  return [formatPounds(price), ...priceQualifiers(unit, vat)].join(' · ').replace(' · + VAT', ' + VAT');
}

/** What a card knows of a price: pounds, unit, VAT, and pounds a head where the listing has a price per head. */
export interface CardPrice {
  price: number;
  price_unit: string;
  vat: string;
  price_per_head?: number | null;
}

/** A price a head: whole pounds, or pounds and pence when it has them ("£66.67", a lot of £2,000 for 30). */
function formatPerHead(amount: number): string {
  return Number.isInteger(Math.round(amount * 100) / 100) ? pounds().format(amount) : pounds(2).format(amount);
}

/**
 * A card's price: livestock sold as a lot show their price a head beside the lot's total ("£2,000 the
 * lot · £100 a head + VAT"); everything else (a price per head among it) as formatListingPrice.
 */
export function formatCardPrice(card: CardPrice): string {
  const perHead = card.price_per_head;
  if (perHead === null || perHead === undefined || card.price_unit !== 'total')
    return formatListingPrice(card.price, card.price_unit, card.vat);
  return [`${formatPounds(card.price)} the lot`, `${formatPerHead(perHead)} a head`, ...priceQualifiers('total', card.vat)]
    .join(' · ')
    .replace(' · + VAT', ' + VAT');
}

/** "12.4 miles away" (one decimal under 10 miles, whole miles above). */
export function formatDistance(miles: number): string {
  if (miles < 1) return 'Less than a mile away';
  const rounded = miles < 10 ? Math.round(miles * 10) / 10 : Math.round(miles);
  return `${rounded.toLocaleString('en-GB')} ${rounded === 1 ? 'mile' : 'miles'} away`;
}
