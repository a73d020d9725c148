import { describe, expect, it } from '@jest/globals';
import { priceLabel } from './services-logic';

describe('priceLabel', () => {
  it('shows whole pounds, the unit unless the price is a total, and + VAT when VAT is added', () => {
    expect(priceLabel({ price: 1200, price_unit: 'total', vat: 'included' })).toBe('£1,200');
    expect(priceLabel({ price: 45, price_unit: 'per-day', vat: 'no-vat' })).toBe('£45 per day');
    expect(priceLabel({ price: 300, price_unit: 'per-week', vat: 'plus-vat' })).toBe('£300 per week + VAT');
  });

  it('shows an unknown unit as nothing rather than a code', () => {
    expect(priceLabel({ price: 10, price_unit: 'per-fortnight', vat: 'included' })).toBe('£10');
  });
});
