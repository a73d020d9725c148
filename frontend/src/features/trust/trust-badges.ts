import { formatDate } from '../../lib/format';

/** What a seller's badges say (issue 23 §2): private or trade, and "Business verified" only when staff checked. */
export interface SellerBadgeFacts {
  seller_type: 'private' | 'trade' | null;
  verified: boolean;
}

export const SELLER_TYPE_LABEL = { private: 'Private seller', trade: 'Trade seller' } as const;

/** A listing card's seller badges, as HTML (fixed text only). */
export function sellerBadgesHtml(facts: SellerBadgeFacts): string {
  const parts: string[] = [];
  if (facts.seller_type) parts.push(`<span class="seller-badge">${SELLER_TYPE_LABEL[facts.seller_type]}</span>`);
  if (facts.verified) parts.push('<span class="seller-badge seller-badge--verified">✓ Business verified</span>');
  return parts.join(' ');
}

/** "Business verified 3 Dec 2026". */
export function verifiedSinceText(iso: string): string {
  return `Business verified ${formatDate(new Date(iso), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' })}`;
}

/** A seller's reviews as cards and listing pages show them (null under 3 reviews: nothing is shown). */
export interface SellerRatingFacts {
  average: number;
  count: number;
}

/** "4.3 out of 5 from 11 reviews", for screen readers and titles. */
export function ratingText(rating: SellerRatingFacts): string {
  return `Rated ${rating.average.toFixed(1)} out of 5 from ${rating.count} review${rating.count === 1 ? '' : 's'}`;
}

/** "★ 4.3 (11)" with its spoken form, as HTML (numbers only); empty without a rating. */
export function sellerRatingHtml(rating: SellerRatingFacts | null | undefined): string {
  if (!rating) return '';
  return `<span class="seller-rating" title="${ratingText(rating)}"><span aria-hidden="true">★ ${rating.average.toFixed(1)} (${rating.count})</span><span class="visually-hidden">${ratingText(rating)}</span></span>`;
}
