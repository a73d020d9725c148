import { describe, expect, it } from '@jest/globals';
import { excerpt, formatCardPrice, formatDistance, formatListingPrice, memberSinceYear } from './listing-format';

describe('formatListingPrice', () => {
  it('shows pounds with no decimals, the unit and the VAT label from the contracts', () => {
    expect(formatListingPrice(38500, 'total', 'plus-vat')).toBe('£38,500 + VAT');
    expect(formatListingPrice(120, 'per-acre', 'no-vat')).toBe('£120 · per acre · No VAT');
    expect(formatListingPrice(45.6, 'per-day', 'included')).toBe('£46 · per day · VAT included');
  });
  it('leaves out an unknown unit or VAT value', () => {
    expect(formatListingPrice(10, 'nonsense', 'nonsense')).toBe('£10');
  });
});

describe('formatCardPrice', () => {
  it('shows livestock sold as a lot with its price a head beside the total, VAT last', () => {
    expect(formatCardPrice({ price: 2000, price_unit: 'total', vat: 'no-vat', price_per_head: 100 })).toBe(
      '£2,000 the lot · £100 a head · No VAT',
    );
    expect(formatCardPrice({ price: 2000, price_unit: 'total', vat: 'plus-vat', price_per_head: 100 })).toBe(
      '£2,000 the lot · £100 a head + VAT',
    );
  });
  it('shows pence a head where a lot does not divide into whole pounds', () => {
    expect(formatCardPrice({ price: 2000, price_unit: 'total', vat: 'included', price_per_head: 66.67 })).toBe(
      '£2,000 the lot · £66.67 a head · VAT included',
    );
  });
  it('shows livestock priced per head as the listing page does', () => {
    expect(formatCardPrice({ price: 120, price_unit: 'per-head', vat: 'no-vat', price_per_head: 120 })).toBe('£120 · per head · No VAT');
  });
  it('shows everything without a price a head as before', () => {
    expect(formatCardPrice({ price: 38500, price_unit: 'total', vat: 'plus-vat', price_per_head: null })).toBe('£38,500 + VAT');
    expect(formatCardPrice({ price: 120, price_unit: 'per-acre', vat: 'no-vat' })).toBe('£120 · per acre · No VAT');
    expect(formatCardPrice({ price: 15, price_unit: 'per-head-week', vat: 'no-vat', price_per_head: null })).toBe(
      '£15 · per head per week · No VAT',
    );
  });
});

describe('formatDistance, memberSinceYear, excerpt', () => {
  it('rounds distances', () => {
    expect(formatDistance(3.14)).toBe('3.1 miles away');
    expect(formatDistance(1)).toBe('1 mile away');
    expect(formatDistance(0)).toBe('Less than a mile away');
    expect(formatDistance(24.6)).toBe('25 miles away');
  });
  it('gives the joining year', () => {
    expect(memberSinceYear('2024-03-01T10:00:00.000Z')).toBe('2024');
  });
  it('cuts at a word with an ellipsis', () => {
    expect(excerpt('short', 60)).toBe('short');
    const long = 'A well kept tractor with new tyres and a full service history, ready to work';
    expect(excerpt(long, 60).length).toBeLessThanOrEqual(61);
    expect(excerpt(long, 60).endsWith('…')).toBe(true);
  });
});
