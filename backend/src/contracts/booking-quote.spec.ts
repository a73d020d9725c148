import { describe, expect, it } from '@jest/globals';
import { BOOKING_QUOTE_TEXTS, bookingQuote, type BookingQuote, quoteLines } from './booking-quote.js';

function quoteOf(input: Parameters<typeof bookingQuote>[0]): BookingQuote {
  const result = bookingQuote(input);
  if ('errors' in result) throw new Error(JSON.stringify(result.errors));
  return result.quote;
}

describe('a booking quote', () => {
  it('charges 40 acres of grazing per acre per season once for the season, with VAT added at 20%', () => {
    expect(
      quoteOf({ pricePence: 2_500, unit: 'per-acre-season', vat: 'plus-vat', from: '2027-04-01', to: '2027-09-30', quantity: 40 }),
    ).toEqual({
      unit: 'per-acre-season',
      unit_price_pence: 2_500,
      days: 183,
      quantity: 40,
      quantity_unit: 'acres',
      basis: '40 acres × 1 season × £25.00 per acre per season',
      vat: 'plus-vat',
      subtotal_pence: 100_000,
      vat_pence: 20_000,
      total_pence: 120_000,
    });
  });

  it('charges per acre per year by the day (days ÷ 365) and per head per week (days ÷ 7)', () => {
    const year = quoteOf({
      pricePence: 18_000,
      unit: 'per-acre-year',
      vat: 'no-vat',
      from: '2027-01-01',
      to: '2027-12-31',
      quantity: 12.5,
    });
    expect(year).toMatchObject({
      days: 365,
      subtotal_pence: 225_000,
      vat_pence: 0,
      total_pence: 225_000,
      basis: '12.5 acres × 1 year × £180.00 per acre per year',
    });
    // 60 head × £3.50 × 10/7 weeks = £300.00 exactly.
    const tack = quoteOf({ pricePence: 350, unit: 'per-head-week', vat: 'no-vat', from: '2027-01-01', to: '2027-01-10', quantity: 60 });
    expect(tack).toMatchObject({ days: 10, subtotal_pence: 30_000, basis: '60 head × 1.43 weeks × £3.50 per head per week' });
  });

  it('charges machinery per day (both days counted), per week and per month pro rata', () => {
    expect(quoteOf({ pricePence: 15_000, unit: 'per-day', vat: 'no-vat', from: '2027-03-01', to: '2027-03-03' }).subtotal_pence).toBe(
      45_000,
    );
    expect(quoteOf({ pricePence: 70_000, unit: 'per-week', vat: 'no-vat', from: '2027-03-01', to: '2027-03-14' }).subtotal_pence).toBe(
      140_000,
    );
    expect(quoteOf({ pricePence: 90_000, unit: 'per-month', vat: 'no-vat', from: '2027-03-01', to: '2027-03-15' }).subtotal_pence).toBe(
      45_000,
    );
  });

  it('rounds to the nearest penny once, halves up, and states it', () => {
    // £1.00 per week for 1 day = 14.2857p → 14p; £1.00 per week for 3 days = 42.857p → 43p.
    expect(quoteOf({ pricePence: 100, unit: 'per-week', vat: 'no-vat', from: '2027-03-01', to: '2027-03-01' }).subtotal_pence).toBe(14);
    expect(quoteOf({ pricePence: 100, unit: 'per-week', vat: 'no-vat', from: '2027-03-01', to: '2027-03-03' }).subtotal_pence).toBe(43);
    // A half penny goes up: 0.5 acre × 1p = 0.5p → 1p; VAT on 1p + VAT is 0.2p → 0p.
    expect(
      quoteOf({ pricePence: 1, unit: 'per-acre-season', vat: 'plus-vat', from: '2027-03-01', to: '2027-03-01', quantity: 0.5 }),
    ).toMatchObject({
      subtotal_pence: 1,
      vat_pence: 0,
      total_pence: 1,
    });
    expect(BOOKING_QUOTE_TEXTS.rounding).toMatch(/nearest penny \(halves up\)/);
  });

  it('shows the VAT a VAT-included price contains (a sixth) without adding it', () => {
    expect(quoteOf({ pricePence: 12_000, unit: 'per-day', vat: 'included', from: '2027-03-01', to: '2027-03-01' })).toMatchObject({
      subtotal_pence: 12_000,
      vat_pence: 2_000,
      total_pence: 12_000,
    });
  });

  it('asks for acres or head where the price needs them, whole head, two decimal places of acres, no more than listed', () => {
    const base = { pricePence: 2_500, vat: 'no-vat' as const, from: '2027-04-01', to: '2027-09-30' };
    expect(bookingQuote({ ...base, unit: 'per-acre-season' })).toEqual({
      errors: { quantity: 'Enter how many acres you want (the price is per acre).' },
    });
    expect(bookingQuote({ ...base, unit: 'per-head-week' })).toEqual({
      errors: { quantity: 'Enter how many head (the price is per head).' },
    });
    expect(bookingQuote({ ...base, unit: 'per-head-week', quantity: 2.5 })).toEqual({
      errors: { quantity: 'Head must be a whole number from 1 to 100,000' },
    });
    expect(bookingQuote({ ...base, unit: 'per-acre-season', quantity: 1.005 })).toEqual({
      errors: { quantity: 'Acres (to two decimal places) must be from 0.01 to 100,000' },
    });
    expect(bookingQuote({ ...base, unit: 'per-acre-season', quantity: 50, listedQuantity: 40 })).toEqual({
      errors: { quantity: 'You asked for 50 acres; the listing has 40.' },
    });
  });
});

describe('a quote in words', () => {
  it('gives how it is reached, the VAT line and the total, as the dialog and the request card show them', () => {
    const quote = quoteOf({
      pricePence: 2_500,
      unit: 'per-acre-season',
      vat: 'plus-vat',
      from: '2027-04-01',
      to: '2027-09-30',
      quantity: 40,
    });
    expect(quoteLines(quote)).toEqual({
      basis: '40 acres × 1 season × £25.00 per acre per season = £1,000.00',
      vat: 'VAT at 20%: £200.00',
      total: 'Total: £1,200.00',
    });
    expect(quoteLines({ ...quote, vat: 'included', vat_pence: 16_667, total_pence: 100_000 }).vat).toBe('Includes VAT at 20%: £166.67');
    expect(quoteLines({ ...quote, vat: 'no-vat', vat_pence: 0, total_pence: 100_000 }).vat).toBe('No VAT');
  });
});
