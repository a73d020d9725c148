import { useEffect, useState } from 'react';
import { excerpt, formatCardPrice } from '../../lib/listing-format';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { imageHtml } from './listing-card';
import { setSaved } from './listings-api';
import { savedListings, type SavedEntry } from './my-listings-api';
import './listing-card.css';
import './profile-listings.css';

/** SPEC §9: saved listing excerpt 60 characters. */
export const EXCERPT_LENGTH = 60;

type State = { kind: 'loading' } | { kind: 'ready'; entries: SavedEntry[] };

/**
 * The profile's Saved Listings (GET /api/listings/saved): a grid with the spec's texts; a failure
 * shows the empty state (SPEC §8 Profile); Remove unsaves (DELETE /api/listings/saved).
 */
function SavedListings() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [pending, setPending] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void savedListings().then((outcome) => {
      if (!live) return;
      if (!outcome.ok) console.warn('Failed to load saved listings', outcome.error);
      setState({ kind: 'ready', entries: outcome.ok ? outcome.data : [] });
    });
    return () => {
      live = false;
    };
  }, []);

  const remove = async (listingId: string) => {
    setPending(listingId);
    const outcome = await setSaved(listingId, false);
    setPending(null);
    if (!outcome.ok) {
      showToast({ title: 'Error', description: 'Could not update saved status. Please try again.', variant: 'destructive' });
      return;
    }
    setState((current) =>
      current.kind === 'ready' ? { kind: 'ready', entries: current.entries.filter((e) => e.listing_id !== listingId) } : current,
    );
    showToast({ title: 'Listing unsaved', variant: 'success' });
  };

  if (state.kind === 'loading') return <p className="profile-listings__message">Loading saved listings...</p>;
  if (state.entries.length === 0) return <p className="profile-listings__message">No saved listings yet.</p>;
  return (
    <ul className="listing-grid profile-listings" aria-label="Saved listings">
      {state.entries.map(({ listing }) => (
        <li key={listing.id} className="listing-card">
          <div
            className="listing-card__media"
            dangerouslySetInnerHTML={{ __html: imageHtml(listing.images[0], listing.title, '(min-width: 1024px) 33vw, 100vw') }}
          />
          <div className="listing-card__body">
            <h3 className="listing-card__title">{listing.title}</h3>
            <p className="listing-card__price">{formatCardPrice(listing)}</p>
            <p className="listing-card__location">{listing.location}</p>
            <p className="profile-listings__excerpt">{excerpt(listing.description, EXCERPT_LENGTH)}</p>
            <div className="btn-row">
              <a className="btn btn--small" href={`/listing/${listing.id}`}>
                View Listing
              </a>
              <button
                type="button"
                className="btn btn--small btn--ghost"
                disabled={pending === listing.id}
                onClick={() => void remove(listing.id)}
              >
                Remove
              </button>
            </div>
          </div>
        </li>
      ))}
    </ul>
  );
}

export default withErrorBoundary(SavedListings);
