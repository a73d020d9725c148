import { atom } from 'nanostores';
import type { components } from '../lib/api-types';
import { ACCOUNT_TEXTS } from '@contracts/account';
import { api, hasSignedInHint, onSessionExpired } from '../lib/api';
import { settle, timeoutSignal } from '../lib/api-result';

export type SignedInUser = components['schemas']['MeResponse'];

export type SessionState =
  { status: 'unknown' } | { status: 'visitor'; twoFactorPending: boolean } | { status: 'signed-in'; user: SignedInUser };

/** Who is using this page; loaded once per page by whoever needs it first (header, protected pages). */
export const $session = atom<SessionState>({ status: 'unknown' });
/** A session problem to show (SPEC §8 "Authentication"), e.g. an expired session. */
export const $sessionError = atom<string | null>(null);

let loading: Promise<SessionState> | undefined;

/** The session from GET /api/auth/me; a visitor without the hint cookie costs no request. */
export function loadSession(options: { always?: boolean } = {}): Promise<SessionState> {
  if (!options.always && !hasSignedInHint(document.cookie)) {
    const visitor: SessionState = { status: 'visitor', twoFactorPending: false };
    $session.set(visitor);
    return Promise.resolve(visitor);
  }
  loading ??= settle<{ user: SignedInUser | null; two_factor_pending: boolean }>(
    api.GET('/api/auth/me', { signal: timeoutSignal() }),
    'Failed to check authentication status',
  ).then((result) => {
    loading = undefined;
    if (!result.ok) {
      $sessionError.set(result.error);
      const visitor: SessionState = { status: 'visitor', twoFactorPending: false };
      $session.set(visitor);
      return visitor;
    }
    const state: SessionState = result.data.user
      ? { status: 'signed-in', user: result.data.user }
      : { status: 'visitor', twoFactorPending: result.data.two_factor_pending };
    $session.set(state);
    return state;
  });
  return loading;
}

export function setSignedIn(user: SignedInUser): void {
  $sessionError.set(null);
  $session.set({ status: 'signed-in', user });
}

/** Ends the session on the server (cookies cleared there) and here. */
export async function signOut(): Promise<void> {
  await settle(api.POST('/api/auth/signout', { signal: timeoutSignal() }), 'Failed to sign out');
  $session.set({ status: 'visitor', twoFactorPending: false });
}

// A failed refresh: the server no longer knows the session. Clear the cookies it set and say why.
onSessionExpired(() => {
  $sessionError.set(ACCOUNT_TEXTS.sessionExpired);
  $session.set({ status: 'visitor', twoFactorPending: false });
  void api.POST('/api/auth/signout').catch(() => undefined);
});
