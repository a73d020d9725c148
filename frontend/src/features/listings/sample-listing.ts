import type { ListingCardData } from './listing-card';

/** A listing card for tests. */
export const sampleCard = (overrides: Partial<ListingCardData> = {}): ListingCardData => ({
  id: '0b7c3a52-3f3a-4d3b-9a53-1f2e3d4c5b6a',
  title: 'Massey Ferguson 5713 <script>',
  description: 'A tractor',
  price: 38500,
  price_unit: 'total',
  vat: 'plus-vat',
  type: 'sale',
  rent_subcategory: null,
  location: 'Taunton, England',
  distance_miles: null,
  category_name: 'Equipment',
  category_slug: 'equipment',
  seller_id: 'f1d2',
  seller_name: 'Jane "Farmer"',
  seller_verified: true,
  seller_type: 'trade',
  images: [],
  featured: false,
  views: 3,
  saves_count: 1,
  status: 'live',
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: '2027-02-18T10:00:00.000Z',
  ...overrides,
});
