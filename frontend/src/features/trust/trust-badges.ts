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
  return `Business verified ${new Date(iso).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' })}`;
}
