import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { safeRedirect } from '../../../contracts/redirect.js';

/** The state of one Google sign-in, held by the browser that started it (httpOnly, this path only). */
export const GOOGLE_STATE_COOKIE = 'fm_google';
/** Sent to /api/auth/google and /api/auth/google/callback, nowhere else. */
const COOKIE_PATH = '/api/auth/google';
/** Time a person has at Google to choose an account and consent. */
const STATE_MINUTES = 10;

/** Sign in (or create an account), or prove again that the signed-in Google account is its owner. */
export type GoogleIntent = 'signin' | 'reauth';

/** What the callback needs from the start: kept in the state cookie, never in the URL sent to Google. */
export interface GoogleFlow {
  intent: GoogleIntent;
  /** Where to go after signing in: a path on this site, or null for the default. */
  redirect: string | null;
}

/** This browser's state cookie, read and written for one request. */
export class StateCookie {
  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly secure: boolean,
  ) {}

  read(): string | undefined {
    return this.request.cookies?.[GOOGLE_STATE_COOKIE];
  }

  write(value: string): void {
    void this.reply.setCookie(GOOGLE_STATE_COOKIE, value, {
      path: COOKIE_PATH,
      httpOnly: true,
      // Lax: sent on the top-level navigation back from Google, not on other sites' requests.
      sameSite: 'lax',
      secure: this.secure,
      maxAge: STATE_MINUTES * 60,
    });
  }

  /** A state is used once: the callback clears it whatever happens. */
  clear(): void {
    void this.reply.clearCookie(GOOGLE_STATE_COOKIE, { path: COOKIE_PATH, sameSite: 'lax', secure: this.secure });
  }
}

/** What passport-oauth2 is given as `req`: the query it reads, and this browser's state cookie. */
export interface StrategyRequest {
  query: Record<string, string>;
  stateCookie: StateCookie;
}

type StoreCallback = (error: Error | null, handle?: string) => void;
type VerifyCallback = (error: Error | null, ok: boolean, state?: GoogleFlow | { message: string }) => void;

/**
 * passport-oauth2's state store, kept in a cookie instead of a server-side session: `store` makes
 * a random handle (the `state` sent to Google) and writes it with the flow into this browser's
 * cookie; `verify` accepts the callback only when its `state` is that handle. A callback started in
 * another browser (login CSRF), forged, or replayed after the cookie is gone fails before any code
 * is exchanged. passport-oauth2 1.8 calls these four-argument forms when `authenticate` is given an
 * object as `state` (its type definitions list only the shorter forms).
 */
export class CookieStateStore {
  store(req: StrategyRequest, flow: GoogleFlow, _meta: unknown, callback: StoreCallback): void {
    const handle = randomBytes(32).toString('base64url');
    req.stateCookie.write(Buffer.from(JSON.stringify({ handle, ...flow })).toString('base64url'));
    callback(null, handle);
  }

  verify(req: StrategyRequest, provided: unknown, _meta: unknown, callback: VerifyCallback): void {
    const saved = decodeState(req.stateCookie.read());
    if (!saved) return callback(null, false, { message: 'no state cookie in this browser (missing, expired or unreadable)' });
    if (typeof provided !== 'string' || !sameText(saved.handle, provided)) {
      return callback(null, false, { message: 'state does not match this browser’s' });
    }
    callback(null, true, { intent: saved.intent, redirect: saved.redirect });
  }
}

function decodeState(cookie: string | undefined): (GoogleFlow & { handle: string }) | null {
  if (!cookie || cookie.length > 2000) return null;
  try {
    const value = JSON.parse(Buffer.from(cookie, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (typeof value.handle !== 'string' || value.handle.length < 32) return null;
    // Checked again on the way out: the cookie is the browser's, so nothing in it is trusted as is.
    return { handle: value.handle, intent: value.intent === 'reauth' ? 'reauth' : 'signin', redirect: safeRedirect(value.redirect) };
  } catch {
    return null;
  }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// The rule is shared with the pages (after a password sign-in they honour the same `redirect`).
export { safeRedirect };
