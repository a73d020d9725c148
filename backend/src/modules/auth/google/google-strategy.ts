import { PassportStrategy } from '@nestjs/passport';
import type { StateStore } from 'passport-oauth2';
import { type Profile, Strategy } from 'passport-google-oauth20';
import type { GoogleConfig } from '../../../config/env.js';
import { CookieStateStore, type GoogleFlow } from './google-state.js';

/** What Google is asked for: who the person is (OpenID Connect), their address and their name and picture. */
export const GOOGLE_SCOPES = ['openid', 'email', 'profile'];

/**
 * passport-google-oauth20 registered as passport's 'google' strategy, reading the profile from the
 * configured OpenID Connect userinfo endpoint. Built only when Google is configured (see
 * GOOGLE_STRATEGY); AuthGuard('google') (GoogleAuthGuard) runs it on the two routes.
 */
export class GoogleStrategy extends PassportStrategy(Strategy, 'google') {
  constructor(config: GoogleConfig, callbackUrl: string) {
    super({
      clientID: config.clientId,
      clientSecret: config.clientSecret,
      callbackURL: callbackUrl,
      authorizationURL: config.authorizationUrl,
      tokenURL: config.tokenUrl,
      userProfileURL: config.userInfoUrl,
      scope: GOOGLE_SCOPES,
      // The types know only the shorter store methods; see CookieStateStore.
      store: new CookieStateStore() as unknown as StateStore,
    });
    // The access token goes in a header, not in the userinfo URL (where proxies and logs would keep it).
    // (@nestjs/passport's mixin type drops passport-oauth2's fields; the instance has them.)
    (this as unknown as { _oauth2: { useAuthorizationHeaderforGET(use: boolean): void } })._oauth2.useAuthorizationHeaderforGET(true);
  }

  /** Google's tokens are not kept: the product calls no Google API after sign-in. */
  validate(_accessToken: string, _refreshToken: string, profile: Profile): Profile {
    return profile;
  }
}

/** The provider token of the strategy: the instance, or null when Google is not configured. */
export const GOOGLE_STRATEGY = Symbol('GoogleStrategy');

/** How one run of the strategy ended, as the guard reports it to the routes. */
export type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; profile: Profile; flow: GoogleFlow }
  | { kind: 'fail'; reason: string }
  | { kind: 'error'; reason: string };

/** One short line for the log: never tokens or the profile. */
export function describeRefusal(value: unknown): string {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return `${value.name}: ${value.message}${typeof code === 'string' ? ` (${code})` : ''}`;
  }
  if (value && typeof value === 'object' && 'message' in value) return String((value as { message: unknown }).message || 'refused');
  return typeof value === 'string' && value ? value : 'refused';
}
