import { FEATURED_LIMIT } from '@contracts/listing-display';
import { categoryName, LISTING_CATEGORIES } from '../../lib/categories';
import { escapeHtml, listingCardHtml, skeletonCardsHtml } from '../listings/listing-card';
import { featuredListings, searchListings, type ListingPage } from '../listings/listings-api';

/** A category slug, or '' for the All chip. */
export type FeaturedFilter = string;

export const FEATURED_CHIPS: ReadonlyArray<{ value: FeaturedFilter; label: string }> = [
  { value: '', label: 'All' },
  ...LISTING_CATEGORIES.map((category) => ({ value: category.slug, label: category.name })),
];

export function emptyMessage(filter: FeaturedFilter): string {
  if (filter === '') return 'No featured listings yet. Be the first to post your land, equipment, or service!';
  return `No ${categoryName(filter) ?? filter} listings found.`;
}

/** The heading says what the grid holds: staff picks, or the newest listings while there are none. */
export function featuredHeading(kind: 'featured' | 'newest'): string {
  return kind === 'featured' ? 'Featured Listings' : 'Newest Listings';
}

/**
 * The heading for a chip, set as soon as it is pressed, so it names the chip whatever its answer
 * (a failed Land request under "Newest Equipment Listings" told the visitor the wrong thing). All's
 * kind is known only from its answer: until then, the page's own heading.
 */
export function chipHeading(filter: FeaturedFilter, kind?: 'featured' | 'newest'): string {
  if (filter === '') return featuredHeading(kind ?? 'featured');
  return `Newest ${categoryName(filter) ?? ''} Listings`;
}

export const FETCH_FAILED = 'Failed to fetch featured listings';
export const LOAD_FAILED = 'Failed to load featured listings';

type GridState =
  { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'listings'; page: ListingPage['listings']; filter: string };

export function gridHtml(state: GridState): string {
  switch (state.kind) {
    case 'loading':
      return `<div class="listing-grid" aria-busy="true">${skeletonCardsHtml(FEATURED_LIMIT)}</div>`;
    case 'error':
      return `<p class="featured__message text-danger" role="alert">${escapeHtml(state.message)}</p>`;
    case 'listings':
      return state.page.length === 0
        ? `<p class="featured__message" data-testid="featured-empty">${escapeHtml(emptyMessage(state.filter))}</p>`
        : `<div class="listing-grid">${state.page.map((listing) => listingCardHtml(listing)).join('')}</div>`;
  }
}

/**
 * The home grid: GET /api/listings/featured for All (featured, or the newest while staff have
 * featured none, and the heading says which); a chip asks the server for that category's newest.
 * A later answer for an earlier chip is dropped.
 */
export function setupFeaturedGrid(root: HTMLElement): void {
  const results = root.querySelector<HTMLElement>('[data-testid="featured-listings"]');
  const heading = document.querySelector<HTMLElement>('[data-featured-heading]');
  const chips = [...root.querySelectorAll<HTMLButtonElement>('[data-featured-filter]')];
  if (!results) return;
  let request = 0;

  const load = async (filter: string) => {
    const mine = ++request;
    results.innerHTML = gridHtml({ kind: 'loading' });
    if (heading) heading.textContent = chipHeading(filter);
    if (filter === '') {
      const outcome = await featuredListings(FEATURED_LIMIT);
      if (mine !== request) return;
      if (!outcome.ok) {
        console.warn(outcome.status === 0 ? LOAD_FAILED : FETCH_FAILED, outcome.error);
        results.innerHTML = gridHtml({ kind: 'error', message: outcome.status === 0 ? LOAD_FAILED : FETCH_FAILED });
        return;
      }
      if (heading) heading.textContent = chipHeading(filter, outcome.data.kind);
      results.innerHTML = gridHtml({ kind: 'listings', page: outcome.data.listings, filter });
      return;
    }
    const outcome = await searchListings(new URLSearchParams({ category: filter, limit: String(FEATURED_LIMIT) }));
    if (mine !== request) return;
    if (!outcome.ok) {
      console.warn(outcome.status === 0 ? LOAD_FAILED : FETCH_FAILED, outcome.error);
      results.innerHTML = gridHtml({ kind: 'error', message: outcome.status === 0 ? LOAD_FAILED : FETCH_FAILED });
      return;
    }
    results.innerHTML = gridHtml({ kind: 'listings', page: outcome.data.listings, filter });
  };

  for (const chip of chips) {
    chip.addEventListener('click', () => {
      for (const other of chips) other.setAttribute('aria-pressed', String(other === chip));
      void load(chip.dataset['featuredFilter'] ?? '');
    });
  }
  void load('');
}
