import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './api-types';
import { hasSignedInHint } from './signed-in-hint';

export { hasSignedInHint };

export type ApiClient = Client<paths>;

/**
 * Every call carries this header. The API refuses a state-changing call that carries the session
 * cookie without it (docs/accounts.md, "Cross-site request forgery"): another site cannot add it.
 */
export const CLIENT_HEADERS = { 'X-Requested-With': 'fieldmarket' } as const;

/** Calls whose 401 means "wrong answer" or "no session", never "refresh and try again". */
const NO_REFRESH_PATHS = new Set([
  '/api/auth/refresh',
  '/api/auth/signin',
  '/api/auth/signout',
  '/api/auth/two-factor/verify-login',
  '/api/auth/two-factor/cancel',
]);

export interface SessionRefreshOptions {
  /** Whether this browser believes it is signed in (the fm_signed_in hint); visitors never refresh. */
  isSignedIn: () => boolean;
  /** The refresh failed: the session is gone. */
  onSessionExpired: () => void;
}

type Fetch = (request: Request) => Promise<Response>;

/**
 * A fetch that answers a 401 on a signed-in call by POSTing /api/auth/refresh once and, when the
 * session continues, sending the original request again (SPEC §4 "Authentication"). Parallel 401s
 * share one refresh, since each refresh rotates the session token.
 */
export function withSessionRefresh(send: Fetch, options: SessionRefreshOptions): Fetch {
  let refreshing: Promise<boolean> | undefined;
  const refresh = (origin: string): Promise<boolean> => {
    refreshing ??= send(new Request(`${origin}/api/auth/refresh`, { method: 'POST', headers: CLIENT_HEADERS, credentials: 'same-origin' }))
      .then((response) => response.ok)
      .catch(() => false)
      .finally(() => {
        refreshing = undefined;
      });
    return refreshing;
  };
  return async (request) => {
    const url = new URL(request.url);
    const retry = NO_REFRESH_PATHS.has(url.pathname) ? undefined : request.clone();
    const response = await send(request);
    if (response.status !== 401 || !retry || !options.isSignedIn()) return response;
    if (!(await refresh(url.origin))) {
      options.onSessionExpired();
      return response;
    }
    return send(retry);
  };
}

let sessionExpiredHandler: () => void = () => {};

/** The session store registers what happens when a refresh fails (stores/session.ts). */
export function onSessionExpired(handler: () => void): void {
  sessionExpiredHandler = handler;
}

/**
 * Typed client for the Fieldmarket API; types come from api-types.ts, generated from openapi.yaml
 * (`npm run api-types -w frontend`). Paths in the contract start with /api, so `baseUrl` is the
 * origin only.
 */
export function createApiClient(
  baseUrl: string,
  refresh?: SessionRefreshOptions,
  // globalThis.fetch looked up per call, so tests can replace it.
  send: Fetch = (request) => globalThis.fetch(request),
): ApiClient {
  return createClient<paths>({
    baseUrl,
    headers: CLIENT_HEADERS,
    fetch: refresh ? withSessionRefresh(send, refresh) : send,
  });
}

/**
 * Where the API is. In the browser it is the page's own origin (''). Pages rendered on the server
 * call it in process (lib/server-api.ts), except under Astro's own dev server: there, over HTTP to
 * INTERNAL_API_URL when set, else http://127.0.0.1:$PORT.
 */
export function apiBaseUrl(runtime: { browser: boolean; env: Readonly<Record<string, string | undefined>> }): string {
  if (runtime.browser) return '';
  const configured = runtime.env['INTERNAL_API_URL']?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  return `http://127.0.0.1:${runtime.env['PORT']?.trim() || '3000'}`;
}

const browser = typeof window !== 'undefined';

/** The client for this runtime: islands and server-rendered pages import this one. */
export const api = createApiClient(
  apiBaseUrl({ browser, env: typeof process === 'undefined' ? {} : process.env }),
  browser ? { isSignedIn: () => hasSignedInHint(document.cookie), onSessionExpired: () => sessionExpiredHandler() } : undefined,
);
