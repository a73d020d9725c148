import { useCallback, useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { settle, timeoutSignal, type ApiResult } from '../../lib/api-result';
import type { components } from '../../lib/api-types';
import { requireSignedIn } from '../auth/protected-route';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { listingCardHtml } from '../listings/listing-card';
import '../listings/listing-card.css';
import { SERVICES_EMPTY } from './services-logic';
import './services.css';

type ListingCard = components['schemas']['ListingCard'];
type ListingPage = components['schemas']['ListingPage'];

const PAGE_SIZE = 24;

function servicesPage(cursor?: string): Promise<ApiResult<ListingPage>> {
  return settle(
    api.GET('/api/listings', { params: { query: { category: 'services', limit: PAGE_SIZE, cursor } }, signal: timeoutSignal() }),
    'Failed to load services',
  );
}

type State = { kind: 'loading' } | { kind: 'failed'; error: string } | { kind: 'ready'; listings: ListingCard[]; next: string | null };

/** /services: the live listings of the Services category, for signed-in users (SPEC §2 route table). */
function ServicesPage() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [more, setMore] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });

  const load = useCallback(async () => {
    setState({ kind: 'loading' });
    const result = await servicesPage();
    setState(
      result.ok
        ? { kind: 'ready', listings: result.data.listings, next: result.data.next_cursor }
        : { kind: 'failed', error: result.error },
    );
  }, []);

  useEffect(() => {
    // A visitor is sent to sign in and comes back here; no listings are asked for on their behalf.
    void requireSignedIn().then((user) => {
      if (user) void load();
    });
  }, [load]);

  const loadMore = async (cursor: string) => {
    setMore({ busy: true, error: null });
    const result = await servicesPage(cursor);
    if (!result.ok) {
      setMore({ busy: false, error: result.error });
      return;
    }
    setMore({ busy: false, error: null });
    setState((current) =>
      current.kind === 'ready'
        ? { kind: 'ready', listings: [...current.listings, ...result.data.listings], next: result.data.next_cursor }
        : current,
    );
  };

  if (state.kind === 'loading') {
    return (
      <div className="services-grid" role="status" aria-busy="true">
        {[0, 1, 2].map((n) => (
          <span key={n} className="skeleton services-grid__placeholder" />
        ))}
        <span className="visually-hidden">Loading services...</span>
      </div>
    );
  }
  if (state.kind === 'failed') {
    return (
      <div role="alert">
        <p className="alert alert--danger">{state.error}</p>
        <button type="button" className="btn" onClick={() => void load()}>
          Try Again
        </button>
      </div>
    );
  }
  if (state.listings.length === 0) {
    return (
      <div className="services-empty" data-testid="services-empty">
        <p>{SERVICES_EMPTY}</p>
        <a className="btn" href="/post-listing">
          Post Listing
        </a>
      </div>
    );
  }
  return (
    <>
      <ul className="services-grid" data-testid="services-list">
        {state.listings.map((listing) => (
          // The same escaped card markup browse and the category pages render.
          <li key={listing.id} dangerouslySetInnerHTML={{ __html: listingCardHtml(listing) }} />
        ))}
      </ul>
      {state.next && (
        <div className="services-more">
          {more.error && <p className="alert alert--danger">{more.error}</p>}
          <button type="button" className="btn btn--outline" disabled={more.busy} onClick={() => void loadMore(state.next ?? '')}>
            {more.busy ? 'Loading...' : 'Show more'}
          </button>
        </div>
      )}
    </>
  );
}

export default withErrorBoundary(ServicesPage);
