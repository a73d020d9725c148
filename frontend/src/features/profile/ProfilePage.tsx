import { lazy, startTransition, Suspense, useCallback, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { GOOGLE_SIGN_IN_ERRORS } from '@contracts/account';
import { redirectToSignIn, requireSignedIn } from '../auth/protected-route';
import { useHydrated } from '../../lib/use-hydrated';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { SellerPanel } from '../trust/SellerPanel';
import { ProfileDetails } from './ProfileDetails';
import type { Notice, Notify } from './notice';
import { getProfile, type Profile } from './profile-api';
import './profile.css';
import '../auth/auth.css';

// The tabs other than the first load when first opened: a phone hydrating /profile parses and runs only
// what it shows (the listing cards, two-factor set-up and the rest stay on the server until asked for).
const MyListings = lazy(() => import('../listings/MyListings'));
const SavedListings = lazy(() => import('../listings/SavedListings'));
const SavedSearches = lazy(() => import('../saved-searches/SavedSearches'));
const SecurityPanel = lazy(() => import('./SecurityPanel').then((module) => ({ default: module.SecurityPanel })));
const PrivacyPanel = lazy(() => import('./PrivacyPanel').then((module) => ({ default: module.PrivacyPanel })));
const AccountPanel = lazy(() => import('./AccountPanel').then((module) => ({ default: module.AccountPanel })));

const TABS = [
  { id: 'details', label: 'Profile' },
  { id: 'listings', label: 'My Listings' },
  { id: 'saved', label: 'Saved' },
  { id: 'saved-searches', label: 'Saved searches' },
  { id: 'security', label: 'Security' },
  { id: 'privacy', label: 'Privacy' },
  { id: 'account', label: 'Account' },
] as const;
type TabId = (typeof TABS)[number]['id'];

function tabFromHash(): TabId {
  const hash = window.location.hash.slice(1);
  return TABS.some((tab) => tab.id === hash) ? (hash as TabId) : 'details';
}

/**
 * /profile: the signed-in user's account (rendered on the server when the page could ask for it), in seven tabs (details, my listings, saved, saved searches, security, privacy, account), with
 * one status banner for what the last action did (SPEC §2 "Profile").
 */
function ProfilePage({ initialProfile }: { initialProfile?: Profile | undefined }) {
  const [profile, setProfile] = useState<Profile | null>(initialProfile ?? null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [tab, setTab] = useState<TabId>('details');
  // Server-rendered tabs do nothing until the island hydrates, so they wait disabled rather than lose a tap.
  const hydrated = useHydrated();
  const tabRefs = useRef<Partial<Record<TabId, HTMLButtonElement | null>>>({});

  const load = useCallback(async () => {
    const result = await getProfile();
    if (result.ok) {
      // A transition: React renders the profile in slices rather than one long task on a phone.
      startTransition(() => {
        setProfile(result.data);
        setLoadError(null);
      });
    } else if (result.status === 401) redirectToSignIn();
    else setLoadError(result.error);
  }, []);

  useEffect(() => {
    setTab(tabFromHash());
    const params = new URLSearchParams(window.location.search);
    const code = params.get('error');
    if (code && code in GOOGLE_SIGN_IN_ERRORS) {
      setNotice({ kind: 'error', text: GOOGLE_SIGN_IN_ERRORS[code as keyof typeof GOOGLE_SIGN_IN_ERRORS] });
    }
    // The server rendered the profile (pages/profile/index.astro); otherwise a visitor is sent to sign in (and comes
    // back here), and no profile request is made for them.
    if (initialProfile) return;
    void requireSignedIn().then((user) => {
      if (user) void load();
    });
  }, [load, initialProfile]);

  const notify: Notify = useCallback((next) => setNotice(next), []);

  const select = (id: TabId, focus = false) => {
    setTab(id);
    window.history.replaceState(null, '', `#${id}`);
    if (focus) tabRefs.current[id]?.focus();
  };

  // Arrow keys, Home and End move between tabs (the ARIA tabs pattern).
  const onTabKey = (event: KeyboardEvent<HTMLButtonElement>) => {
    const index = TABS.findIndex((entry) => entry.id === tab);
    const last = TABS.length - 1;
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: last };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const wrapped = TABS[(target + TABS.length) % TABS.length];
    if (wrapped) select(wrapped.id, true);
  };

  if (loadError) {
    return (
      <div role="alert">
        <p className="alert alert--danger">{loadError}</p>
        <button type="button" className="btn" onClick={() => void load()}>
          Try Again
        </button>
      </div>
    );
  }
  if (!profile) {
    return (
      <div className="profile-loading" role="status" aria-busy="true">
        <span className="skeleton profile-loading__line" />
        <span className="skeleton profile-loading__block" />
        <span className="visually-hidden">Loading your profile...</span>
      </div>
    );
  }

  return (
    <div className="profile" data-testid="profile">
      <div role={notice?.kind === 'error' ? 'alert' : 'status'} className="profile__banner" data-testid="profile-banner">
        {notice && (
          <p className={`alert ${notice.kind === 'success' ? 'alert--success' : 'alert--danger'}`}>
            {notice.text}
            <button type="button" className="profile__banner-close" aria-label="Dismiss message" onClick={() => setNotice(null)}>
              ×
            </button>
          </p>
        )}
      </div>

      <div className="tabs" role="tablist" aria-label="Profile sections">
        {TABS.map((entry) => (
          <button
            key={entry.id}
            ref={(element) => {
              tabRefs.current[entry.id] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${entry.id}`}
            className="tabs__tab"
            aria-selected={tab === entry.id}
            aria-controls={`panel-${entry.id}`}
            tabIndex={tab === entry.id ? 0 : -1}
            onClick={() => select(entry.id)}
            disabled={!hydrated}
            onKeyDown={onTabKey}
          >
            {entry.label}
          </button>
        ))}
      </div>

      <div className="tabs__panel" role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} tabIndex={0}>
        {tab === 'details' && (
          <>
            <ProfileDetails profile={profile} onSaved={setProfile} notify={notify} />
            <SellerPanel notify={notify} />
          </>
        )}
        <Suspense fallback={<PanelLoading />}>
          {tab === 'listings' && <MyListings />}
          {tab === 'saved' && <SavedListings />}
          {tab === 'saved-searches' && <SavedSearches />}
          {tab === 'security' && <SecurityPanel profile={profile} onChanged={load} notify={notify} />}
          {tab === 'privacy' && <PrivacyPanel profile={profile} onSaved={setProfile} notify={notify} />}
          {tab === 'account' && <AccountPanel profile={profile} notify={notify} />}
        </Suspense>
      </div>
    </div>
  );
}

function PanelLoading() {
  return (
    <div className="profile-loading" role="status" aria-busy="true">
      <span className="skeleton profile-loading__block" />
      <span className="visually-hidden">Loading...</span>
    </div>
  );
}

export default withErrorBoundary(ProfilePage);
