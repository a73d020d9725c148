import { safeRedirect } from '@contracts/redirect';

/**
 * Where to go after signing in (SPEC §2 "Sign-in"): the `redirect` query parameter when it is a
 * path on this site, else `fallback`. Other sites, `//host` and backslash tricks are ignored, so the
 * sign-in page is no open redirect. The rule is the one Google's callback applies.
 */
export function afterSignInPath(search: string, fallback: string): string {
  const requested = new URLSearchParams(search).get('redirect');
  const path = safeRedirect(requested);
  // Never back to the sign-in pages themselves.
  if (!path || /^\/(signin|signup)(?:[/?#]|$)/.test(path)) return fallback;
  return path;
}

/** The sign-in page for a visitor who opened a page that needs an account. */
export function signInPathFor(location: { pathname: string; search: string; hash?: string }): string {
  return `/signin?redirect=${encodeURIComponent(`${location.pathname}${location.search}${location.hash ?? ''}`)}`;
}
