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
  wanted_ranges: null,
  wanted_radius: null,
  distance_note: null,
  saved: false,
  is_owner: false,
  ...overrides,
});

describe('categoryFacts', () => {
  it('gives cattle the TB area their country settles (Scotland), and sends England and Wales to the official map', () => {
    const cattle = (location: string) =>
      categoryFacts({ category_slug: 'livestock', rent_subcategory: null, attributes: { species: 'cattle' }, location }).find(
        (fact) => fact.label === 'TB area',
      )?.value;
    expect(cattle('Lanark, Scotland')).toBe('Scotland: officially TB free (the whole country)');
    expect(cattle('Okehampton (EX20), England')).toMatch(/^England: High Risk, Edge or Low Risk Area by location: see the official TB map/);
    expect(cattle('Brecon, Wales')).toMatch(/^Wales: Low, Intermediate or High TB Area by location: see the official TB map/);
    // Sheep are not tested for TB as cattle are: no TB area.
    expect(
      categoryFacts({ category_slug: 'livestock', rent_subcategory: null, attributes: { species: 'sheep' }, location: 'Lanark, Scotland' }),
    ).toEqual([{ label: 'Species', value: 'Sheep' }]);
  });

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

describe('categoryFacts of livestock', () => {
  it('shows a pre-movement test with its derived "valid until", and what a visitor gets of the holding number and tags', () => {
    expect(
      categoryFacts({
        category_slug: 'livestock',
        rent_subcategory: null,
        attributes: { species: 'cattle', cph: '12/345/····', ear_tags: 'on file', tb_status: 'otf', pre_movement_test: '2026-11-26' },
      }),
    ).toEqual([
      { label: 'Species', value: 'Cattle' },
      { label: 'Holding number (CPH)', value: '12/345/····' },
      { label: 'Ear tags', value: 'on file' },
      { label: 'Herd TB status', value: 'Officially TB free' },
      { label: 'Pre-movement TB test', value: '26 November 2026' },
      { label: 'Pre-movement test valid until', value: '25 January 2027' },
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
