import { describe, expect, it } from '@jest/globals';
import { sampleCard } from './sample-listing';
import { categoryFacts, listingJsonLd } from './listing-facts';
import type { ListingDetail } from './listings-api';

const detail = (overrides: Partial<ListingDetail> = {}): ListingDetail => ({
  ...sampleCard(),
  attributes: { make: 'Massey Ferguson', year: 2019, hours: 2400 },
  seller: {
    id: 's',
    name: 'Jane',
    avatar_url: null,
    member_since: '2024-01-01T00:00:00Z',
    verified: true,
    seller_type: 'trade',
    business_name: 'Jane’s Farm Ltd',
    business_verified_at: '2026-11-01T10:00:00Z',
  },
  latitude: 51,
  longitude: -3,
  place_id: '1',
  saved: false,
  is_owner: false,
  ...overrides,
});

describe('categoryFacts', () => {
  it('labels the category fields from the contracts with their units', () => {
    expect(categoryFacts(detail())).toEqual([
      { label: 'Make', value: 'Massey Ferguson' },
      { label: 'Year', value: '2019' },
      { label: 'Hours', value: '2,400 hours' },
    ]);
  });
  it('names choices and yes/no', () => {
    expect(
      categoryFacts({ category_slug: 'seeds-plants', rent_subcategory: null, attributes: { quantity_unit: 'tonnes', organic: true } }),
    ).toEqual([
      { label: 'Quantity unit', value: 'tonnes' },
      { label: 'Organic', value: 'Yes' },
    ]);
  });
});

describe('listingJsonLd', () => {
  it('is a Product with a GBP Offer and cannot close the script element', () => {
    const text = listingJsonLd(detail({ title: 'Tractor</script><script>alert(1)</script>' }), 'https://x/listing/1', undefined);
    expect(text).not.toContain('<');
    const data = JSON.parse(text) as { '@type': string; name: string; offers: { priceCurrency: string; price: string } };
    expect(data['@type']).toBe('Product');
    expect(data.name).toBe('Tractor</script><script>alert(1)</script>');
    expect(data.offers).toMatchObject({ priceCurrency: 'GBP', price: '38500.00' });
  });
});
