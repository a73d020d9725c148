import type { components } from '../../lib/api-types';
import { sellerBadgesHtml, sellerRatingHtml } from '../trust/trust-badges';
import { formatCardPrice, formatDistance } from '../../lib/listing-format';

export type ListingCardData = components['schemas']['ListingCard'];
export type ListingImageData = components['schemas']['ImageView'];

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe for HTML content and quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);
}

/** Only our own relative URLs or http(s) ones go into src attributes. */
function safeUrl(url: string): string {
  return /^(\/(?!\/)|https?:\/\/)/.test(url) ? url : '';
}

/**
 * A listing photo: a placeholder box while it is processing (never a broken image), a <picture>
 * with AVIF and WebP srcsets once ready (width and height set, so nothing shifts), and the neutral
 * placeholder when there is no photo or it failed.
 */
export function imageHtml(image: ListingImageData | undefined, alt: string, sizes: string, eager = false): string {
  if (!image || image.status === 'failed') {
    return '<div class="listing-photo listing-photo--none" role="img" aria-label="No photo yet"><span aria-hidden="true">No photo</span></div>';
  }
  if (image.status === 'processing' || !image.url) {
    return '<div class="listing-photo listing-photo--processing" role="img" aria-label="Photo processing"><span aria-hidden="true">Processing photo…</span></div>';
  }
  const srcset = (type: string) =>
    image.variants
      .filter((variant) => variant.type === type && safeUrl(variant.url))
      .map((variant) => `${escapeHtml(variant.url)} ${variant.width}w`)
      .join(', ');
  const sources = ['image/avif', 'image/webp']
    .map((type) => [type, srcset(type)] as const)
    .filter(([, set]) => set !== '')
    .map(([type, set]) => `<source type="${type}" srcset="${set}" sizes="${escapeHtml(sizes)}">`)
    .join('');
  const size = image.width && image.height ? ` width="${image.width}" height="${image.height}"` : '';
  return `<picture class="listing-photo">${sources}<img src="${escapeHtml(safeUrl(image.url))}" alt="${escapeHtml(alt)}"${size} loading="${eager ? 'eager' : 'lazy'}" decoding="async"></picture>`;
}

/** One card, the same markup whether the server or a script renders it; links to /listing/{id}. */
export function listingCardHtml(listing: ListingCardData, options: { near?: string } = {}): string {
  const href = `/listing/${encodeURIComponent(listing.id)}${options.near ? `?near=${encodeURIComponent(options.near)}` : ''}`;
  const badges = [
    listing.type === 'rent' ? '<span class="badge listing-card__badge">For Rent</span>' : '',
    listing.type === 'wanted' ? '<span class="badge listing-card__badge">Wanted</span>' : '',
    listing.featured ? '<span class="badge listing-card__badge listing-card__badge--featured">Featured</span>' : '',
    listing.status !== 'live' ? `<span class="badge listing-card__badge">${escapeHtml(statusLabel(listing.status))}</span>` : '',
  ].join('');
  const distance = listing.distance_miles !== null ? ` · ${formatDistance(listing.distance_miles)}` : '';
  return `<article class="listing-card" data-listing-id="${escapeHtml(listing.id)}">
<a class="listing-card__link" href="${href}">
<div class="listing-card__media">${imageHtml(listing.images[0], listing.title, '(min-width: 1024px) 33vw, (min-width: 640px) 50vw, 100vw')}${badges ? `<div class="listing-card__badges">${badges}</div>` : ''}</div>
<div class="listing-card__body">
<p class="listing-card__category">${escapeHtml(listing.category_name)}</p>
<h3 class="listing-card__title">${escapeHtml(listing.title)}</h3>
<p class="listing-card__price">${listing.type === 'wanted' ? 'Up to ' : ''}${escapeHtml(formatCardPrice(listing))}</p>
<p class="listing-card__location">${escapeHtml(listing.location)}${escapeHtml(distance)}</p>
<p class="listing-card__seller">${escapeHtml(listing.seller_name)} ${sellerBadgesHtml({ seller_type: listing.seller_type, verified: listing.seller_verified })}${sellerRatingHtml(listing.seller_rating)}</p>
</div>
</a>
</article>`;
}

/** Six grey cards while listings load (SPEC §9: six skeletons). */
export function skeletonCardsHtml(count = 6): string {
  const card =
    '<div class="listing-card listing-card--skeleton" aria-hidden="true"><div class="listing-photo skeleton"></div><div class="listing-card__body"><div class="skeleton skeleton-line"></div><div class="skeleton skeleton-line skeleton-line--short"></div></div></div>';
  return card.repeat(count);
}

export function statusLabel(status: string): string {
  const labels: Record<string, string> = {
    live: 'Live',
    sold: 'Sold',
    let: 'Let',
    withdrawn: 'Withdrawn',
    expired: 'Expired',
    removed: 'Removed',
  };
  return labels[status] ?? status;
}
