import { describe, expect, it } from '@jest/globals';
import { chipHeading, emptyMessage, FEATURED_CHIPS, featuredHeading, gridHtml } from './featured-listings';

describe('FEATURED_CHIPS', () => {
  it('offers All and the five listing categories of the spec, in order', () => {
    expect(FEATURED_CHIPS.map((chip) => chip.label)).toEqual(['All', 'Land', 'Equipment', 'Livestock', 'Seeds & Plants', 'Services']);
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

describe('featuredHeading and gridHtml', () => {
  it('says whether the grid holds staff picks or the newest listings', () => {
    expect(featuredHeading('featured')).toBe('Featured Listings');
    expect(featuredHeading('newest')).toBe('Newest Listings');
  });

  it('names the chip shown, before and whatever its answer', () => {
    expect(chipHeading('land')).toBe('Newest Land Listings');
    expect(chipHeading('seeds-plants')).toBe('Newest Seeds & Plants Listings');
    expect(chipHeading('')).toBe('Featured Listings');
    expect(chipHeading('', 'newest')).toBe('Newest Listings');
  });

  it('shows six skeletons while loading, the error text, or the empty text', () => {
    expect(gridHtml({ kind: 'loading' }).match(/listing-card--skeleton/g)).toHaveLength(6);
    expect(gridHtml({ kind: 'error', message: 'Failed to load featured listings' })).toContain('Failed to load featured listings');
    expect(gridHtml({ kind: 'listings', page: [], filter: 'land' })).toContain('No Land listings found.');
  });
});
