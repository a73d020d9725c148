import { useEffect, useRef, useState } from 'react';
import { formatCardPrice } from '../../lib/listing-format';
import { countOf } from '../../lib/format';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { imageHtml, statusLabel } from './listing-card';
import { changeStatus, deleteListing, type ListingModeration, type OwnerStatus } from './listings-api';
import { ACTION_LABELS, myListings, ownerActions, type OwnListingCard } from './my-listings-api';
import './listing-card.css';
import './profile-listings.css';

type State =
  { kind: 'loading' } | { kind: 'error' } | { kind: 'ready'; listings: OwnListingCard[]; cursor: string | null; total: number | null };

/** Why staff hid one of the owner's listings, and where its case stands (issue 23 §5): from the My Listings answer. */
function HiddenByStaff({ id, moderation }: { id: string; moderation: ListingModeration }) {
  if (!moderation.reason) return null;
  const appeal = moderation.appeal
    ? ` Your appeal: ${moderation.appeal.status === 'pending' ? 'with our team' : moderation.appeal.status}.`
    : moderation.case_closed
      ? ' Our team has closed the case.'
      : '';
  return (
    <p className="profile-listings__hidden" data-testid="hidden-reason">
      Hidden by our team: {moderation.reason}.{appeal}{' '}
      <a href={`/listing/${id}`}>{moderation.may_appeal ? 'See why and appeal' : 'See details'}</a>
    </p>
  );
}

/**
 * The profile's My Listings (GET /api/listings/mine, every state): Active Listings count, Load More,
 * and for each listing edit, mark sold or let, withdraw, renew and delete (with confirmation).
 */
function MyListings() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [busy, setBusy] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<OwnListingCard | null>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  const load = async () => {
    setState({ kind: 'loading' });
    const outcome = await myListings();
    setState(
      outcome.ok
        ? { kind: 'ready', listings: outcome.data.listings, cursor: outcome.data.next_cursor, total: outcome.data.total }
        : { kind: 'error' },
    );
  };
  useEffect(() => {
    void load();
  }, []);
  useEffect(() => {
    if (confirming) dialog.current?.showModal();
    else dialog.current?.close();
  }, [confirming]);

  const loadMore = async () => {
    if (state.kind !== 'ready' || !state.cursor) return;
    setBusy('more');
    const outcome = await myListings(state.cursor);
    setBusy(null);
    if (!outcome.ok) {
      showToast({ title: 'Error', description: 'Failed to load more listings. Please try again.', variant: 'destructive' });
      return;
    }
    setState((current) => {
      if (current.kind !== 'ready') return current;
      const known = new Set(current.listings.map((l) => l.id));
      return {
        ...current,
        listings: [...current.listings, ...outcome.data.listings.filter((l) => !known.has(l.id))],
        cursor: outcome.data.next_cursor,
      };
    });
  };

  const act = async (listing: OwnListingCard, status: OwnerStatus) => {
    setBusy(listing.id);
    const outcome = await changeStatus(listing.id, status);
    setBusy(null);
    if (!outcome.ok) {
      showToast({ title: 'Error', description: outcome.error, variant: 'destructive' });
      return;
    }
    setState((current) =>
      current.kind === 'ready'
        ? { ...current, listings: current.listings.map((l) => (l.id === listing.id ? { ...l, status: outcome.data.status } : l)) }
        : current,
    );
    showToast({ title: status === 'live' ? 'Listing renewed' : `Listing ${statusLabel(status).toLowerCase()}`, variant: 'success' });
  };

  const remove = async (listing: OwnListingCard) => {
    setBusy(listing.id);
    const outcome = await deleteListing(listing.id);
    setBusy(null);
    setConfirming(null);
    if (!outcome.ok) {
      showToast({ title: 'Error', description: outcome.error, variant: 'destructive' });
      return;
    }
    setState((current) =>
      current.kind === 'ready'
        ? {
            ...current,
            listings: current.listings.filter((l) => l.id !== listing.id),
            total: current.total === null ? null : current.total - 1,
          }
        : current,
    );
    showToast({ title: 'Listing deleted', variant: 'success' });
  };

  if (state.kind === 'loading') return <p className="profile-listings__message">Loading your listings...</p>;
  if (state.kind === 'error')
    return (
      <div className="profile-listings__message" role="alert">
        <p>Failed to load your listings.</p>
        <button type="button" className="btn btn--small" onClick={() => void load()}>
          Try Again
        </button>
      </div>
    );
  const active = state.listings.filter((l) => l.status === 'live').length;
  return (
    <div className="my-listings">
      <p className="my-listings__count">
        Active Listings: <strong data-testid="active-listings-count">{active}</strong>
      </p>
      {state.listings.length === 0 ? (
        <p className="profile-listings__message">
          You have no listings yet. <a href="/post-listing">Post your first listing</a>.
        </p>
      ) : (
        <ul className="listing-grid profile-listings" aria-label="My listings">
          {state.listings.map((listing) => (
            <li key={listing.id} className="listing-card">
              <div
                className="listing-card__media"
                dangerouslySetInnerHTML={{ __html: imageHtml(listing.images[0], listing.title, '(min-width: 1024px) 33vw, 100vw') }}
              />
              <div className="listing-card__body">
                <span className="badge">{statusLabel(listing.status)}</span>
                <h3 className="listing-card__title">
                  <a href={`/listing/${listing.id}`}>{listing.title}</a>
                </h3>
                {listing.moderation && <HiddenByStaff id={listing.id} moderation={listing.moderation} />}
                <p className="listing-card__price">{formatCardPrice(listing)}</p>
                <p className="listing-card__location">
                  {countOf(listing.views, 'view')} · {countOf(listing.saves_count, 'save')}
                </p>
                <div className="btn-row profile-listings__actions">
                  <a className="btn btn--small" href={`/post-listing?edit=${listing.id}`}>
                    Edit
                  </a>
                  {ownerActions(listing).map((status) => (
                    <button
                      key={status}
                      type="button"
                      className="btn btn--small btn--outline"
                      disabled={busy === listing.id}
                      onClick={() => void act(listing, status)}
                    >
                      {ACTION_LABELS[status]}
                    </button>
                  ))}
                  {(!listing.moderation || listing.moderation.may_delete) && (
                    <button
                      type="button"
                      className="btn btn--small btn--ghost text-danger"
                      disabled={busy === listing.id}
                      onClick={() => setConfirming(listing)}
                    >
                      Delete
                    </button>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      {state.cursor && (
        <p className="profile-listings__more">
          <button type="button" className="btn btn--outline" disabled={busy === 'more'} onClick={() => void loadMore()}>
            {busy === 'more' ? 'Loading...' : 'Load More'}
          </button>
        </p>
      )}
      <dialog
        ref={dialog}
        className="card profile-listings__confirm"
        aria-labelledby="my-listings-delete-title"
        onClose={() => setConfirming(null)}
      >
        <h2 id="my-listings-delete-title">Delete this listing?</h2>
        <p>{confirming ? `“${confirming.title}” and its photos will be removed for good. This cannot be undone.` : ''}</p>
        <div className="btn-row">
          <button
            type="button"
            className="btn btn--danger"
            disabled={!confirming || busy === confirming.id}
            onClick={() => confirming && void remove(confirming)}
          >
            Delete Listing
          </button>
          <button type="button" className="btn btn--ghost" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </div>
      </dialog>
    </div>
  );
}

export default withErrorBoundary(MyListings);
