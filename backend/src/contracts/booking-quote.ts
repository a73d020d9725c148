import { PRICE_UNITS, type PriceUnit, type VatOption } from './listings.js';

/** The UK standard rate of VAT, in per cent. */
export const VAT_RATE_PERCENT = 20;
/** Acres a booking may ask for, to two decimal places; head, whole. */
export const BOOKING_QUANTITY_MAX = 100_000;

/**
 * What a booking costs, worked out from the listing's price when it is requested and kept with the
 * request: an accepted booking keeps this price whatever the listing's price does later. Money in
 * integer pence.
 */
export interface BookingQuote {
  unit: PriceUnit;
  unit_price_pence: number;
  /** Days booked, both ends included. */
  days: number;
  /** Acres or head, for a price per acre or per head. */
  quantity: number | null;
  quantity_unit: 'acres' | 'head' | null;
  /** How the subtotal is reached, in words: "40 acres × 1 season × £25.00 per acre per season". */
  basis: string;
  vat: VatOption;
  subtotal_pence: number;
  /** The VAT added (+ VAT) or contained (VAT included); 0 when no VAT. */
  vat_pence: number;
  total_pence: number;
}

export const BOOKING_QUOTE_TEXTS = {
  acresRequired: 'Enter how many acres you want (the price is per acre).',
  headRequired: 'Enter how many head (the price is per head).',
  quantityRange: (what: string) => `${what} must be from 0.01 to ${BOOKING_QUANTITY_MAX.toLocaleString('en-GB')}`,
  wholeHead: 'Head must be a whole number from 1 to 100,000',
  moreThanListed: (asked: number, listed: number, what: string) => `You asked for ${asked} ${what}; the listing has ${listed}.`,
  /** What the quote's rounding is, shown under a total. */
  rounding: 'Part periods are charged by the day; the total is rounded to the nearest penny (halves up) once, and VAT on it likewise.',
} as const;

/**
 * The periods one unit of a price counts over a booking's days: a day each, a week 7 days, a month
 * 30 days, a year 365 days, a season the whole booking. As a fraction, so pence are rounded once.
 */
const PERIODS: Readonly<Record<PriceUnit, { per: number | 'booking'; quantity?: 'acres' | 'head'; period: string }>> = {
  total: { per: 'booking', period: 'booking' },
  'per-head': { per: 'booking', quantity: 'head', period: 'booking' },
  'per-acre': { per: 'booking', quantity: 'acres', period: 'booking' },
  'per-tonne': { per: 'booking', period: 'booking' },
  'per-bag': { per: 'booking', period: 'booking' },
  'per-hour': { per: 'booking', period: 'booking' },
  'per-job': { per: 'booking', period: 'booking' },
  'per-day': { per: 1, period: 'day' },
  'per-week': { per: 7, period: 'week' },
  'per-month': { per: 30, period: 'month' },
  'per-season': { per: 'booking', period: 'season' },
  'per-acre-season': { per: 'booking', quantity: 'acres', period: 'season' },
  'per-acre-year': { per: 365, quantity: 'acres', period: 'year' },
  'per-head-week': { per: 7, quantity: 'head', period: 'week' },
};

/** Whether a unit's bookings need a quantity, and which: acres or head. */
export function bookingQuantityUnit(unit: PriceUnit): 'acres' | 'head' | null {
  return PERIODS[unit].quantity ?? null;
}

/** Days from one date to another, both included (YYYY-MM-DD). */
export function daysBooked(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** Pence in pounds, as the product shows money: "£1,200.00". */
export function poundsText(pence: number): string {
  return `£${(pence / 100).toLocaleString('en-GB', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}

/** numerator / denominator rounded to the nearest whole, halves up (both positive). */
function roundedDivision(numerator: bigint, denominator: bigint): number {
  return Number((2n * numerator + denominator) / (2n * denominator));
}

/**
 * The quote for a booking of a listing priced `pricePence` per `unit`, from one day to another,
 * for `quantity` acres or head where the unit needs it. Checks the quantity: a problem is returned
 * by field, in the words the requester sees.
 */
export function bookingQuote(input: {
  pricePence: number;
  unit: PriceUnit;
  vat: VatOption;
  from: string;
  to: string;
  quantity?: number | null;
  /** The listing's own acres or head count, when it gives them: no booking asks for more. */
  listedQuantity?: number;
}): { quote: BookingQuote } | { errors: Record<string, string> } {
  const rule = PERIODS[input.unit];
  const days = daysBooked(input.from, input.to);
  const quantityUnit = rule.quantity ?? null;
  let hundredths = 100n;
  if (quantityUnit) {
    const quantity = input.quantity;
    if (quantity === undefined || quantity === null) {
      return { errors: { quantity: quantityUnit === 'acres' ? BOOKING_QUOTE_TEXTS.acresRequired : BOOKING_QUOTE_TEXTS.headRequired } };
    }
    if (quantityUnit === 'head' && (!Number.isInteger(quantity) || quantity < 1 || quantity > BOOKING_QUANTITY_MAX)) {
      return { errors: { quantity: BOOKING_QUOTE_TEXTS.wholeHead } };
    }
    if (!Number.isFinite(quantity) || quantity < 0.01 || quantity > BOOKING_QUANTITY_MAX || Math.round(quantity * 100) !== quantity * 100) {
      return { errors: { quantity: BOOKING_QUOTE_TEXTS.quantityRange('Acres (to two decimal places)') } };
    }
    if (input.listedQuantity !== undefined && quantity > input.listedQuantity) {
      return { errors: { quantity: BOOKING_QUOTE_TEXTS.moreThanListed(quantity, input.listedQuantity, quantityUnit) } };
    }
    hundredths = BigInt(Math.round(quantity * 100));
  }
  // subtotal = price × quantity × days / days-per-period, in one fraction so pence round once.
  const perDays = rule.per === 'booking' ? 1n : BigInt(rule.per);
  const bookedDays = rule.per === 'booking' ? 1n : BigInt(days);
  const subtotal = roundedDivision(BigInt(input.pricePence) * hundredths * bookedDays, 100n * perDays);
  const vatPence =
    input.vat === 'plus-vat'
      ? roundedDivision(BigInt(subtotal) * BigInt(VAT_RATE_PERCENT), 100n)
      : input.vat === 'included'
        ? roundedDivision(BigInt(subtotal) * BigInt(VAT_RATE_PERCENT), BigInt(100 + VAT_RATE_PERCENT))
        : 0;
  const quantity = quantityUnit ? Number(hundredths) / 100 : null;
  const periods =
    rule.per === 'booking'
      ? rule.period === 'season'
        ? '1 season'
        : null
      : `${trimmed(days / rule.per)} ${rule.period}${days === rule.per ? '' : 's'}`;
  const basis = [
    quantity !== null ? `${quantity} ${quantityUnit}` : null,
    periods,
    `${poundsText(input.pricePence)} ${PRICE_UNITS[input.unit]}`,
  ]
    .filter(Boolean)
    .join(' × ');
  return {
    quote: {
      unit: input.unit,
      unit_price_pence: input.pricePence,
      days,
      quantity,
      quantity_unit: quantityUnit,
      basis,
      vat: input.vat,
      subtotal_pence: subtotal,
      vat_pence: vatPence,
      total_pence: input.vat === 'plus-vat' ? subtotal + vatPence : subtotal,
    },
  };
}

/** A count of periods in words: whole, or to two decimal places (10 days are 1.43 weeks). */
function trimmed(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

/** A quote as the booking dialog and the request card show it: how it is reached, the VAT line, the total. */
export function quoteLines(quote: BookingQuote): { basis: string; vat: string; total: string } {
  const vat =
    quote.vat === 'plus-vat'
      ? `VAT at ${VAT_RATE_PERCENT}%: ${poundsText(quote.vat_pence)}`
      : quote.vat === 'included'
        ? `Includes VAT at ${VAT_RATE_PERCENT}%: ${poundsText(quote.vat_pence)}`
        : 'No VAT';
  return { basis: `${quote.basis} = ${poundsText(quote.subtotal_pence)}`, vat, total: `Total: ${poundsText(quote.total_pence)}` };
}
