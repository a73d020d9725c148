import { useEffect, useState } from 'react';
import { signInPathFor } from '../../lib/redirect';
import { hasSignedInHint } from '../../lib/signed-in-hint';
import { useHydrated } from '../../lib/use-hydrated';
import { loadSession } from '../../stores/session';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { SAVE_AFTER_SIGN_IN, saveSearch, searchOfBrowseUrl } from './saved-searches-api';

type State = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; name: string } | { kind: 'failed'; message: string };

/**
 * /browse's "Save this search": saves the query as the URL states it. A visitor goes through
 * sign-in and comes back to the same URL with `save_search=1`, and the search is saved then.
 */
function SaveSearchButton() {
  const [state, setState] = useState<State>({ kind: 'idle' });
  // The server-rendered button cannot act before the island hydrates (client:idle): until then it is
  // shown disabled rather than taking a click that does nothing.
  const hydrated = useHydrated();

  const save = async () => {
    setState({ kind: 'saving' });
    const outcome = await saveSearch(searchOfBrowseUrl(window.location.search));
    if (outcome.ok) {
      setState({ kind: 'saved', name: outcome.data.name });
      showToast({ title: 'Search saved', description: `"${outcome.data.name}": manage it in your profile.`, variant: 'success' });
    } else {
      setState({ kind: 'failed', message: Object.values(outcome.fields ?? {})[0] ?? outcome.error });
    }
  };

  const start = async () => {
    const signedIn = hasSignedInHint(document.cookie) && (await loadSession()).status === 'signed-in';
    if (signedIn) return save();
    const back = new URL(window.location.href);
    back.searchParams.set(SAVE_AFTER_SIGN_IN, '1');
    window.location.assign(signInPathFor(back));
  };

  // Back from signing in: save, then take the request off the URL (a reload must not save again).
  useEffect(() => {
    const url = new URL(window.location.href);
    if (url.searchParams.get(SAVE_AFTER_SIGN_IN) !== '1') return;
    url.searchParams.delete(SAVE_AFTER_SIGN_IN);
    window.history.replaceState(window.history.state, '', url);
    void start();
  }, []);

  return (
    <div className="save-search" data-testid="save-search">
      <button
        type="button"
        className="btn btn--outline btn--small"
        disabled={!hydrated || state.kind === 'saving' || state.kind === 'saved'}
        onClick={() => void start()}
      >
        {state.kind === 'saved' ? 'Search saved' : state.kind === 'saving' ? 'Saving…' : 'Save this search'}
      </button>
      {state.kind === 'saved' && (
        <p className="save-search__note" role="status">
          Saved as “{state.name}”. <a href="/profile#saved-searches">Manage saved searches</a>
        </p>
      )}
      {state.kind === 'failed' && (
        <p className="alert alert--danger" role="alert">
          {state.message}
        </p>
      )}
    </div>
  );
}

export default withErrorBoundary(SaveSearchButton);
