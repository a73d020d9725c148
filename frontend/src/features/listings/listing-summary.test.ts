import { describe, expect, it } from '@jest/globals';
import { firstImageUrl, toListingSummary } from './listing-summary';

describe('firstImageUrl', () => {
  it('reads arrays, JSON arrays and comma-separated text', () => {
    expect(firstImageUrl(['', 'https://a/1.jpg'])).toBe('https://a/1.jpg');
    expect(firstImageUrl('["https://a/2.jpg","https://a/3.jpg"]')).toBe('https://a/2.jpg');
    expect(firstImageUrl(' https://a/4.jpg , https://a/5.jpg')).toBe('https://a/4.jpg');
  });

  it('skips blob: URLs and gives null when nothing is usable', () => {
    expect(firstImageUrl('blob:https://x/1, https://a/6.jpg')).toBe('https://a/6.jpg');
    expect(firstImageUrl('blob:https://x/1')).toBeNull();
    expect(firstImageUrl('[not json')).toBeNull();
    expect(firstImageUrl(undefined)).toBeNull();
    expect(firstImageUrl([42])).toBeNull();
  });
});

describe('toListingSummary', () => {
  it('rejects entries without an id, a title or a numeric price', () => {
    expect(toListingSummary(null)).toBeNull();
    expect(toListingSummary({ title: 'Tractor', price: 100 })).toBeNull();
    expect(toListingSummary({ id: 'x', price: 100 })).toBeNull();
    expect(toListingSummary({ id: 'x', title: 'Tractor', price: 'call for price' })).toBeNull();
  });

  it('falls back to empty text for missing optional fields', () => {
    expect(toListingSummary({ id: 'x', title: 'Tractor', price: 100 })).toEqual({
      id: 'x',
      title: 'Tractor',
      price: 100,
      location: '',
      categorySlug: '',
      categoryName: '',
      imageUrl: null,
    });
  });
});
