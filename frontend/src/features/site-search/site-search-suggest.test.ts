import { describe, expect, it } from '@jest/globals';
import { categorySuggestions, placeSuggestion } from './site-search-suggest';

describe('the header search box suggestions', () => {
  it('suggests the categories with a word starting with what was typed, each to its browse page', () => {
    expect(categorySuggestions('live')).toEqual([{ label: 'Livestock', kind: 'Category', href: '/browse?category=livestock' }]);
    expect(categorySuggestions(' PLANT ').map((suggestion) => suggestion.href)).toEqual(['/browse?category=seeds-plants']);
    expect(categorySuggestions('se').map((suggestion) => suggestion.label)).toEqual(['Seeds & Plants', 'Services']);
  });

  it('suggests no category for a single letter or words inside a name', () => {
    expect(categorySuggestions('l')).toEqual([]);
    expect(categorySuggestions('stock')).toEqual([]);
  });

  it('sends a place to browse near it, its name kept for the place box', () => {
    expect(placeSuggestion({ id: 'gb-2647216', label: 'Hereford, Herefordshire' } as Parameters<typeof placeSuggestion>[0])).toEqual({
      label: 'Hereford, Herefordshire',
      kind: 'Place',
      href: '/browse?location=gb-2647216&place=Hereford%2C+Herefordshire',
    });
  });
});
