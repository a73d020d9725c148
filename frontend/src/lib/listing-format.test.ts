import { describe, expect, it } from '@jest/globals';
import { excerpt, formatDistance, formatListingPrice, memberSinceYear } from './listing-format';

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
