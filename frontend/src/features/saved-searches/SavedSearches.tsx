import { useEffect, useState } from 'react';
import { ALERT_FREQUENCIES, type AlertFrequency } from '@contracts/saved-searches';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import {
  changeSavedSearch,
  deleteSavedSearch,
  markSavedSearchSeen,
  savedSearches,
  type SavedSearch,
  type SavedSearchChange,
} from './saved-searches-api';
import './saved-searches.css';

const FREQUENCY_LABELS: Record<AlertFrequency, string> = {
  instant: 'Instantly',
  daily: 'Daily digest (07:00)',
  weekly: 'Weekly digest (Monday 07:00)',
  off: 'No e-mails',
};

type State = { kind: 'loading' } | { kind: 'failed' } | { kind: 'ready'; searches: SavedSearch[] };

/** The profile's Saved searches: each with its new matches, opened as a browse page, renamed, how it alerts, paused, deleted. */
function SavedSearches() {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [pending, setPending] = useState<string | null>(null);
  const [names, setNames] = useState<Record<string, string>>({});

  useEffect(() => {
    void savedSearches().then((outcome) => setState(outcome.ok ? { kind: 'ready', searches: outcome.data } : { kind: 'failed' }));
  }, []);

  const replace = (next: SavedSearch) =>
    setState((current) =>
      current.kind === 'ready' ? { kind: 'ready', searches: current.searches.map((s) => (s.id === next.id ? next : s)) } : current,
    );

  const change = async (search: SavedSearch, update: SavedSearchChange, done: string) => {
    setPending(search.id);
    const outcome = await changeSavedSearch(search.id, update);
    setPending(null);
    if (!outcome.ok) {
      showToast({ title: 'Not saved', description: Object.values(outcome.fields ?? {})[0] ?? outcome.error, variant: 'destructive' });
      return;
    }
    replace(outcome.data);
    showToast({ title: done, variant: 'success' });
  };

  const remove = async (search: SavedSearch) => {
    if (!window.confirm(`Delete the saved search "${search.name}"?`)) return;
    setPending(search.id);
    const outcome = await deleteSavedSearch(search.id);
    setPending(null);
    if (!outcome.ok) {
      showToast({ title: 'Not deleted', description: outcome.error, variant: 'destructive' });
      return;
    }
    setState((current) =>
      current.kind === 'ready' ? { kind: 'ready', searches: current.searches.filter((s) => s.id !== search.id) } : current,
    );
    showToast({ title: 'Saved search deleted', variant: 'success' });
  };

  /** Opens the search at once: marking it seen goes along beside (keepalive), never holding the navigation up. */
  const open = (search: SavedSearch) => {
    markSavedSearchSeen(search.id);
    window.location.assign(search.browse_url);
  };

  if (state.kind === 'loading') return <p className="profile-listings__message">Loading saved searches...</p>;
  if (state.kind === 'failed') return <p className="alert alert--danger">Could not load your saved searches. Please try again.</p>;
  if (state.searches.length === 0) {
    return (
      <p className="profile-listings__message">
        No saved searches yet. Search on <a href="/browse">Browse</a> and choose “Save this search” to hear about new matches.
      </p>
    );
  }
  return (
    <ul className="saved-searches" aria-label="Saved searches">
      {state.searches.map((search) => {
        const name = names[search.id] ?? search.name;
        return (
          <li key={search.id} className="saved-searches__item card" data-testid="saved-search">
            <div className="saved-searches__head">
              <a
                href={search.browse_url}
                className="saved-searches__name"
                // The link opens the search at once; marking it seen goes along beside (keepalive).
                onClick={() => markSavedSearchSeen(search.id)}
              >
                {search.name}
              </a>
              {search.new_matches > 0 && (
                <span className="badge" data-testid="new-matches">
                  {search.new_matches} new
                </span>
              )}
              {search.paused && <span className="badge badge--muted">Paused</span>}
            </div>
            <form
              className="saved-searches__rename"
              onSubmit={(event) => {
                event.preventDefault();
                void change(search, { name }, 'Name saved');
              }}
            >
              <label>
                Name
                <input value={name} maxLength={120} onChange={(event) => setNames({ ...names, [search.id]: event.target.value })} />
              </label>
              <button type="submit" className="btn btn--small btn--ghost" disabled={pending === search.id || name === search.name}>
                Rename
              </button>
            </form>
            <div className="saved-searches__settings">
              <label>
                E-mail me
                <select
                  value={search.frequency}
                  disabled={pending === search.id}
                  onChange={(event) => void change(search, { frequency: event.target.value as AlertFrequency }, 'Alerts updated')}
                >
                  {ALERT_FREQUENCIES.map((frequency) => (
                    <option key={frequency} value={frequency}>
                      {FREQUENCY_LABELS[frequency]}
                    </option>
                  ))}
                </select>
              </label>
              <label className="checkbox">
                <input
                  type="checkbox"
                  checked={search.price_drops}
                  disabled={pending === search.id}
                  onChange={(event) => void change(search, { price_drops: event.target.checked }, 'Alerts updated')}
                />
                Price drops on matching listings
              </label>
            </div>
            <div className="btn-row">
              <button type="button" className="btn btn--small" onClick={() => open(search)}>
                Open search
              </button>
              <button
                type="button"
                className="btn btn--small btn--ghost"
                disabled={pending === search.id}
                onClick={() => void change(search, { paused: !search.paused }, search.paused ? 'Alerts resumed' : 'Alerts paused')}
              >
                {search.paused ? 'Resume' : 'Pause'}
              </button>
              <button
                type="button"
                className="btn btn--small btn--ghost"
                disabled={pending === search.id}
                onClick={() => void remove(search)}
              >
                Delete
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

export default withErrorBoundary(SavedSearches);
