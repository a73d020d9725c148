import { describe, expect, it } from '@jest/globals';
import { emptyMessage, FEATURED_CHIPS } from './featured-listings';

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
