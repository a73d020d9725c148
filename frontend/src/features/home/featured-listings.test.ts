import { describe, expect, it } from '@jest/globals';
import type { ListingSummary } from '../listings/listing-summary';
import { emptyMessage, filterByCategory, interpretFeaturedResponse } from './featured-listings';

const listing = (id: string, categorySlug: string): ListingSummary => ({
  id,
  title: `Listing ${id}`,
  price: 1000,
  location: 'Devon',
  categorySlug,
  categoryName: categorySlug,
  imageUrl: null,
});

describe('interpretFeaturedResponse', () => {
  it('treats a missing endpoint (404) as no listings', () => {
    expect(interpretFeaturedResponse(404, { success: false, error: 'Not Found' })).toEqual({
      kind: 'listings',
      listings: [],
    });
  });

  it('treats an empty data array as no listings', () => {
    expect(interpretFeaturedResponse(200, { success: true, data: [] })).toEqual({ kind: 'listings', listings: [] });
  });

  it('reports other failures as errors', () => {
    expect(interpretFeaturedResponse(500, { success: false, error: 'boom' })).toEqual({ kind: 'error' });
    expect(interpretFeaturedResponse(200, { success: true })).toEqual({ kind: 'error' });
    expect(interpretFeaturedResponse(200, null)).toEqual({ kind: 'error' });
  });

  it('reads snake_case listings and skips malformed entries', () => {
    const result = interpretFeaturedResponse(200, {
      success: true,
      data: [
        {
          id: 'a1',
          title: '10 acres of pasture',
          price: '45000',
          location: 'Herefordshire',
          category_slug: 'land',
          category_name: 'Land',
          images: '["https://img.example/1.jpg"]',
        },
        { title: 'no id' },
      ],
    });
    expect(result).toEqual({
      kind: 'listings',
      listings: [
        {
          id: 'a1',
          title: '10 acres of pasture',
          price: 45000,
          location: 'Herefordshire',
          categorySlug: 'land',
          categoryName: 'Land',
          imageUrl: 'https://img.example/1.jpg',
        },
      ],
    });
  });

  it('reads camelCase listings and names the category from its slug', () => {
    const result = interpretFeaturedResponse(200, {
      data: [{ id: 7, title: 'Seed drill', price: 1200, location: 'Kent', categorySlug: 'equipment', images: [] }],
    });
    expect(result).toEqual({
      kind: 'listings',
      listings: [
        {
          id: '7',
          title: 'Seed drill',
          price: 1200,
          location: 'Kent',
          categorySlug: 'equipment',
          categoryName: 'Equipment',
          imageUrl: null,
        },
      ],
    });
  });
});

describe('filterByCategory', () => {
  const listings = [listing('1', 'land'), listing('2', 'equipment'), listing('3', 'land')];

  it('keeps everything for All', () => {
    expect(filterByCategory(listings, '')).toHaveLength(3);
  });

  it('keeps only the chosen category', () => {
    expect(filterByCategory(listings, 'land').map((l) => l.id)).toEqual(['1', '3']);
    expect(filterByCategory(listings, 'livestock')).toEqual([]);
  });
});

describe('emptyMessage', () => {
  it('invites the first post for All', () => {
    expect(emptyMessage('')).toBe('No featured listings yet. Be the first to post your land, equipment, or service!');
  });

  it('names the category for a chip', () => {
    expect(emptyMessage('land')).toBe('No Land listings found.');
    expect(emptyMessage('seeds-plants')).toBe('No Seeds & Plants listings found.');
  });
});
