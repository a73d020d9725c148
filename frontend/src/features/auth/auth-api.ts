import { api, type ApiClient } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { settle, timeoutSignal, type ApiResult } from '../../lib/api-result';

type Schemas = components['schemas'];
export type SignInResult = Schemas['SignInResponse'];

export function signUp(body: Schemas['SignUpRequest']): Promise<ApiResult<Schemas['MessageResponse']>> {
  return settle(api.POST('/api/auth/signup', { body, signal: timeoutSignal() }), 'Sign up failed');
}

export function signIn(body: Schemas['SignInRequest']): Promise<ApiResult<SignInResult>> {
  return settle(api.POST('/api/auth/signin', { body, signal: timeoutSignal() }), 'Sign in failed');
}

export function answerTwoFactor(body: Schemas['TwoFactorAnswerRequest']): Promise<ApiResult<SignInResult>> {
  return settle(api.POST('/api/auth/two-factor/verify-login', { body, signal: timeoutSignal() }), 'Invalid verification code');
}

export function cancelTwoFactor(): Promise<ApiResult<Schemas['MessageResponse']>> {
  return settle(api.POST('/api/auth/two-factor/cancel', { signal: timeoutSignal() }), 'Failed to verify 2FA code');
}

/** Which sign-in providers the server has; `client` is the page's server-side client when rendering. */
export function authProviders(client: ApiClient = api): Promise<ApiResult<Schemas['AuthProvidersResponse']>> {
  return settle(client.GET('/api/auth/providers', { signal: timeoutSignal() }), 'Failed to load sign-in options');
}

/** How the sign-in form offers Google: known on the server when the page is rendered. */
export type GoogleOption = 'available' | 'not-configured';

export function googleOption(providers: Schemas['AuthProvidersResponse']): GoogleOption {
  return providers.google ? 'available' : 'not-configured';
}

export function verifyEmail(token: string): Promise<ApiResult<Schemas['MessageResponse']>> {
  return settle(api.POST('/api/auth/verify-email', { body: { token }, signal: timeoutSignal() }), 'Failed to confirm your address');
}

export function requestPasswordReset(email: string): Promise<ApiResult<Schemas['MessageResponse']>> {
  return settle(api.POST('/api/auth/password-reset', { body: { email }, signal: timeoutSignal() }), 'Failed to send the reset link');
}

/** Whether a reset link still works; checking does not use it. */
export function checkPasswordResetLink(token: string): Promise<ApiResult<Schemas['MessageResponse']>> {
  return settle(api.POST('/api/auth/password-reset/check', { body: { token }, signal: timeoutSignal() }), 'Failed to check the reset link');
}

export function completePasswordReset(token: string, password: string): Promise<ApiResult<Schemas['MessageResponse']>> {
  return settle(
    api.POST('/api/auth/password-reset/complete', { body: { token, password }, signal: timeoutSignal() }),
    'Failed to reset password.',
  );
}

/** Google sign-in starts on the server, which comes back to `redirect` (a path on this site). */
export function googleSignInHref(redirect: string): string {
  return `/api/auth/google?redirect=${encodeURIComponent(redirect)}`;
}
