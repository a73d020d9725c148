import { useEffect, useState } from 'react';
import { LISTING_CATEGORIES } from '../../lib/categories';
import { useHydrated } from '../../lib/use-hydrated';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { ListingCard, ListingCardSkeleton } from '../listings/ListingCard';
import type { ListingSummary } from '../listings/listing-summary';
import {
  emptyMessage,
  FEATURED_LIMIT,
  FEATURED_URL,
  filterByCategory,
  interpretFeaturedResponse,
  type FeaturedFilter,
  type FeaturedResult,
} from './featured-listings';
import './featured-listings.css';

const CHIPS: ReadonlyArray<{ value: FeaturedFilter; label: string }> = [
  { value: '', label: 'All' },
  ...LISTING_CATEGORIES.map((category) => ({ value: category.slug, label: category.name })),
];

const REQUEST_TIMEOUT_MS = 15_000;

type LoadState = { status: 'loading' } | { status: 'error' } | { status: 'ready'; listings: ListingSummary[] };

async function loadFeatured(signal: AbortSignal): Promise<FeaturedResult> {
  const response = await fetch(FEATURED_URL, { headers: { Accept: 'application/json' }, signal });
  const body: unknown = await response.json().catch(() => null);
  return interpretFeaturedResponse(response.status, body);
}

/** Category chips over the home page's featured grid; filtering happens on the fetched listings. */
function FeaturedListings() {
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [filter, setFilter] = useState<FeaturedFilter>('');
  const hydrated = useHydrated();

  useEffect(() => {
    let active = true;
    const controller = new AbortController();
    const timeout = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
    loadFeatured(controller.signal)
      .then((result) => {
        if (!active) return;
        setState(result.kind === 'error' ? { status: 'error' } : { status: 'ready', listings: result.listings });
      })
      .catch((error: unknown) => {
        if (!active) return;
        console.error('Failed to load featured listings', error);
        setState({ status: 'error' });
      })
      .finally(() => clearTimeout(timeout));
    return () => {
      active = false;
      controller.abort();
    };
  }, []);

  const visible = state.status === 'ready' ? filterByCategory(state.listings, filter) : [];

  return (
    <div className="featured">
      <div className="featured__chips" role="group" aria-label="Filter featured listings by category">
        {CHIPS.map((chip) => (
          <button
            key={chip.value || 'all'}
            type="button"
            className="chip"
            aria-pressed={filter === chip.value}
            disabled={!hydrated}
            onClick={() => setFilter(chip.value)}
          >
            {chip.label}
          </button>
        ))}
      </div>

      <div
        className="featured__results"
        aria-live="polite"
        aria-busy={state.status === 'loading'}
        data-testid="featured-listings"
        data-state={state.status}
      >
        {state.status === 'loading' && (
          <>
            <p className="visually-hidden">Loading featured listings…</p>
            <div className="grid grid--3">
              {Array.from({ length: FEATURED_LIMIT }, (_, index) => (
                <ListingCardSkeleton key={index} />
              ))}
            </div>
          </>
        )}
        {state.status === 'error' && <p className="featured__message text-danger">Failed to load featured listings</p>}
        {state.status === 'ready' && visible.length === 0 && (
          <p className="featured__message" data-testid="featured-empty">
            {emptyMessage(filter)}
          </p>
        )}
        {visible.length > 0 && (
          <ul className="grid grid--3 featured__grid">
            {visible.map((listing) => (
              <li key={listing.id}>
                <ListingCard listing={listing} />
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export default withErrorBoundary(FeaturedListings);
