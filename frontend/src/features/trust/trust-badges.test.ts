import { describe, expect, it } from '@jest/globals';
import { sellerBadgesHtml, sellerRatingHtml, verifiedSinceText } from './trust-badges';

describe('seller badges', () => {
  it('say private or trade, and "Business verified" only when staff verified', () => {
    expect(sellerBadgesHtml({ seller_type: 'trade', verified: true })).toBe(
      '<span class="seller-badge">Trade seller</span> <span class="seller-badge seller-badge--verified">✓ Business verified</span>',
    );
    expect(sellerBadgesHtml({ seller_type: 'private', verified: false })).toBe('<span class="seller-badge">Private seller</span>');
    expect(sellerBadgesHtml({ seller_type: null, verified: false })).toBe('');
  });

  it('date the verification in UK form', () => {
    expect(verifiedSinceText('2026-12-03T10:00:00.000Z')).toBe('Business verified 3 Dec 2026');
  });

  it('show a rating with its count, and nothing without one (under 3 reviews the API gives none)', () => {
    expect(sellerRatingHtml({ average: 4, count: 11 })).toBe(
      '<span class="seller-rating" title="Rated 4.0 out of 5 from 11 reviews"><span aria-hidden="true">★ 4.0 (11)</span><span class="visually-hidden">Rated 4.0 out of 5 from 11 reviews</span></span>',
    );
    expect(sellerRatingHtml(null)).toBe('');
  });
});
