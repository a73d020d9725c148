import { categoryName } from '../../lib/categories';
import { isRecord } from '../../lib/is-record';
import { toListingSummary, type ListingSummary } from '../listings/listing-summary';

/** A category slug, or '' for the All chip. */
export type FeaturedFilter = string;

export type FeaturedResult = { kind: 'listings'; listings: ListingSummary[] } | { kind: 'error' };

export const FEATURED_LIMIT = 6;
export const FEATURED_URL = `/api/listings/featured?limit=${FEATURED_LIMIT}`;

/**
 * Reads the featured endpoint's answer. 404 means the endpoint does not exist yet and counts as
 * "no listings"; any other non-2xx or a body without a data array is an error.
 */
export function interpretFeaturedResponse(status: number, body: unknown): FeaturedResult {
  if (status === 404) return { kind: 'listings', listings: [] };
  if (status < 200 || status >= 300) return { kind: 'error' };
  const data = isRecord(body) ? body['data'] : undefined;
  if (!Array.isArray(data)) return { kind: 'error' };
  return { kind: 'listings', listings: data.flatMap((raw) => toListingSummary(raw) ?? []) };
}

export function filterByCategory(listings: readonly ListingSummary[], filter: FeaturedFilter): ListingSummary[] {
  return filter === '' ? [...listings] : listings.filter((listing) => listing.categorySlug === filter);
}

export function emptyMessage(filter: FeaturedFilter): string {
  if (filter === '') return 'No featured listings yet. Be the first to post your land, equipment, or service!';
  return `No ${categoryName(filter) ?? filter} listings found.`;
}
