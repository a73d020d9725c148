import type { Request } from 'express';
import type { StateStore } from 'passport-oauth2';
import { type Profile, Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type { GoogleConfig } from '../../../config/env.js';
import { CookieStateStore, type GoogleFlow, type StrategyRequest } from './google-state.js';

/** What Google is asked for: who the person is (OpenID Connect), their address and their name and picture. */
export const GOOGLE_SCOPES = ['openid', 'email', 'profile'];

/** The strategy of passport-google-oauth20, reading the profile from the OpenID Connect userinfo endpoint. */
export class GoogleOidcStrategy extends GoogleStrategy {
  constructor(config: GoogleConfig, callbackUrl: string) {
    super(
      {
        clientID: config.clientId,
        clientSecret: config.clientSecret,
        callbackURL: callbackUrl,
        authorizationURL: config.authorizationUrl,
        tokenURL: config.tokenUrl,
        userProfileURL: config.userInfoUrl,
        scope: GOOGLE_SCOPES,
        // The types know only the shorter store methods; see CookieStateStore.
        store: new CookieStateStore() as unknown as StateStore,
      },
      // Google's tokens are not kept: the product calls no Google API after sign-in.
      (_accessToken: string, _refreshToken: string, profile: Profile, done: (error: null, user: Profile) => void) => done(null, profile),
    );
    // The access token goes in a header, not in the userinfo URL (where proxies and logs would keep it).
    this._oauth2.useAuthorizationHeaderforGET(true);
  }
}

interface StrategyStep {
  authenticate(req: Request, options?: Record<string, unknown>): void;
  redirect(url: string): void;
  success(user: unknown, info?: unknown): void;
  fail(challenge?: unknown): void;
  error(error: unknown): void;
  pass(): void;
}

export type StrategyOutcome =
  | { kind: 'redirect'; url: string }
  | { kind: 'success'; profile: Profile; flow: GoogleFlow }
  | { kind: 'fail'; reason: string }
  | { kind: 'error'; reason: string };

/**
 * Runs one step of the strategy (the start: a redirect to Google; the callback: state check, code
 * exchange, profile) and resolves with its outcome. Passport's own middleware would write the
 * response itself, which on Fastify needs the raw response and bypasses Fastify's cookies; here the
 * strategy's actions (redirect, success, fail, error) only report, and the caller answers.
 */
export function runStrategy(
  strategy: GoogleOidcStrategy,
  request: StrategyRequest,
  options: Record<string, unknown>,
  timeoutMs: number,
): Promise<StrategyOutcome> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => settle({ kind: 'error', reason: `no answer from Google within ${timeoutMs / 1000} s` }), timeoutMs);
    function settle(outcome: StrategyOutcome): void {
      clearTimeout(timer);
      resolve(outcome);
    }
    // The actions passport's middleware would attach, reporting here instead of writing a response.
    const step = Object.create(strategy) as StrategyStep;
    step.redirect = (url) => settle({ kind: 'redirect', url });
    step.success = (user, info) => {
      const flow = (info as { state?: GoogleFlow } | undefined)?.state;
      if (flow) settle({ kind: 'success', profile: user as Profile, flow });
      else settle({ kind: 'error', reason: 'signed in without a verified state' });
    };
    step.fail = (challenge) => settle({ kind: 'fail', reason: describe(challenge) });
    step.error = (error) => settle({ kind: 'error', reason: describe(error) });
    step.pass = () => settle({ kind: 'error', reason: 'the strategy passed' });
    try {
      step.authenticate(request as unknown as Request, options);
    } catch (error) {
      settle({ kind: 'error', reason: describe(error) });
    }
  });
}

/** One short line for the log: never tokens or the profile. */
function describe(value: unknown): string {
  if (value instanceof Error) {
    const code = (value as { code?: unknown }).code;
    return `${value.name}: ${value.message}${typeof code === 'string' ? ` (${code})` : ''}`;
  }
  if (value && typeof value === 'object' && 'message' in value) return String((value as { message: unknown }).message || 'refused');
  return typeof value === 'string' && value ? value : 'refused';
}
