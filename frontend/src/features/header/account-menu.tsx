import { useEffect, useRef, useState } from 'react';
import { mountRoot } from '../../lib/mount-root';
import { $session, $sessionError, loadSession, signOut, type SignedInUser } from '../../stores/session';
import { showToast } from '../../stores/toasts';
import { setupDisclosure } from './disclosure';
import { markSessionResolved } from './session-gate';

/** First letter of the name for the avatar; '?' when there is none (SPEC §2 "Messages"). */
export function initialOf(name: string): string {
  return name.trim().charAt(0).toUpperCase() || '?';
}

/** The avatar: the picture when there is one, else the first letter; a picture that fails is dropped (SPEC §8 "Avatar"). */
function Avatar({ user }: { user: SignedInUser }) {
  const [pictureFailed, setPictureFailed] = useState(false);
  return (
    <span className="avatar" aria-hidden="true">
      {initialOf(user.full_name)}
      {user.avatar_url && !pictureFailed && (
        <img src={user.avatar_url} alt="" width={32} height={32} onError={() => setPictureFailed(true)} />
      )}
    </span>
  );
}

async function signOutAndLeave(): Promise<void> {
  await signOut();
  window.location.assign('/');
}

/** The avatar and name button with its menu: Signed in as, Profile, Sign Out (SPEC §2 "Header"). */
export function AccountMenu({ user }: { user: SignedInUser }) {
  const root = useRef<HTMLDivElement>(null);
  // The header's own disclosure behaviour (Escape, a press outside, focus leaving), as for the Browse menu.
  useEffect(() => {
    if (root.current) setupDisclosure(root.current);
  }, []);
  return (
    <div className="account-menu" data-disclosure ref={root}>
      <button
        type="button"
        className="account-menu__toggle"
        aria-expanded="false"
        aria-controls="account-menu-panel"
        aria-label={`Account menu for ${user.full_name}`}
        data-disclosure-toggle
        data-testid="account-menu"
      >
        <Avatar user={user} />
        <span className="account-menu__name">{user.full_name}</span>
      </button>
      <div id="account-menu-panel" className="account-menu__panel" hidden data-disclosure-panel>
        <p className="account-menu__who">
          Signed in as <strong>{user.email}</strong>
        </p>
        <ul>
          <li>
            <a className="account-menu__item" href="/profile">
              Profile
            </a>
          </li>
          <li>
            <button type="button" className="account-menu__item" onClick={() => void signOutAndLeave()}>
              Sign Out
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}

/** The mobile menu's account actions once signed in. */
function MobileAccountActions() {
  return (
    <>
      <a className="btn" href="/profile">
        Profile
      </a>
      <button type="button" className="btn btn--outline" onClick={() => void signOutAndLeave()}>
        Sign Out
      </button>
    </>
  );
}

/**
 * Loaded only when the fm_signed_in hint cookie is present (SiteHeader.astro), so visitors download
 * none of this: asks who is signed in, then puts the account menu where Sign Up and Sign In were,
 * in the header and in the mobile menu.
 */
export async function mountAccountMenu(slot: HTMLElement): Promise<void> {
  slot.setAttribute('aria-busy', 'true');
  const state = await loadSession();
  slot.removeAttribute('aria-busy');
  markSessionResolved();
  const error = $sessionError.get();
  if (error) showToast({ title: error, variant: 'destructive' });
  if (state.status !== 'signed-in') return;
  slot.replaceChildren();
  mountRoot(slot, <AccountMenu user={state.user} />);

  const mobile = document.querySelector<HTMLElement>('[data-mobile-account]');
  if (mobile) {
    mobile.replaceChildren();
    mountRoot(mobile, <MobileAccountActions />);
  }

  // A later sign-out (another island) or an expired session puts Sign In back.
  $session.listen((next) => {
    if (next.status === 'visitor') window.location.reload();
  });
}
