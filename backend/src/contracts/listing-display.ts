/**
 * What a listing card needs to show a listing: the price's unit and VAT words, and the home page's
 * featured count. Kept apart from listings.ts (the category fields and their checks) because every
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
