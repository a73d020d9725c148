import { loadSession, type SignedInUser } from '../../stores/session';
import { signInPathFor } from '../../lib/redirect';
import { hasSignedInHint } from '../../lib/signed-in-hint';

/**
 * Pages that need an account (SPEC §2 route table: /profile, /services, /messages and
 * /post-listing) send a visitor to /signin, which brings them back here after signing in. History
 * is replaced, so Back does not return to a page that would only bounce again (SPEC §4).
 */
export function redirectToSignIn(): void {
  window.location.replace(signInPathFor(window.location));
}

/**
 * The signed-in user, or null once a visitor has been sent to sign in. Without the fm_signed_in
 * hint the visitor is sent on at once, with no request; with it, the session decides.
 */
export async function requireSignedIn(): Promise<SignedInUser | null> {
  if (!hasSignedInHint(document.cookie)) {
    redirectToSignIn();
    return null;
  }
  const state = await loadSession();
  if (state.status === 'signed-in') return state.user;
  redirectToSignIn();
  return null;
}
