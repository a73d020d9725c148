import { REUSE_FOR_VISITORS_HEADER } from '@contracts/page-context';
import { apiBaseUrl, createApiClient, type ApiClient } from './api';

/** Any absolute origin does: the web process's fetchApi reads only a call's path and query. */
const IN_PROCESS_ORIGIN = 'http://web-process.invalid';

/** The parts of Astro's page or endpoint context the server-side API client needs. */
export interface RenderContext {
  locals: App.Locals;
  request: Request;
}

/**
 * The API client of a page rendered on the server, calling on the visitor's behalf. In the web
 * process the calls go in process, from the visitor's address as the web process resolved it and
 * with their cookies and browser (Astro.locals.page, backend/src/web/page-context.ts): the API's
 * per-client limit, its view counts and its sign-in see the visitor. Under Astro's own dev server
 * (astro dev), which has no web process around it, they go over HTTP with the visitor's cookies
 * and browser; never with an X-Forwarded-For the client wrote.
 */
export function pageApi({ locals, request }: RenderContext): ApiClient {
  if (locals.page) return createApiClient(IN_PROCESS_ORIGIN, undefined, locals.page.fetchApi);
  const visitor: Record<string, string> = {};
  for (const name of ['cookie', 'user-agent']) {
    const value = request.headers.get(name);
    if (value) visitor[name] = value;
  }
  return createApiClient(apiBaseUrl({ browser: false, env: process.env }), undefined, (call) => {
    for (const [name, value] of Object.entries(visitor)) call.headers.set(name, value);
    return globalThis.fetch(call);
  });
}

/**
 * The status of a page whose API call failed: a visitor past their API rate limit gets the API's
 * 429 and its Retry-After (the page spent their budget, not everyone's); any other failure is the
 * API being unavailable, 503.
 */
export function answerFailedCall(
  response: { status?: number | undefined; headers: Headers },
  failure: { status: number; retryAfter?: string },
): void {
  if (failure.status !== 429) {
    response.status = 503;
    return;
  }
  response.status = 429;
  if (failure.retryAfter) response.headers.set('retry-after', failure.retryAfter);
}

/**
 * Says that this page's HTML, for a visitor without a session, depends only on its URL and what every visitor
 * sees alike (the listings, the configuration), so the
 * web process may answer the same URL from it for a moment (backend/src/web/page-reuse.ts). Only a 200 that sets
 * no cookie is reused; a member always gets their own rendering.
 */
export function reuseForVisitors(response: { headers: Headers }): void {
  response.headers.set(REUSE_FOR_VISITORS_HEADER, '1');
}
