import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { PageContext } from '../contracts/page-context.js';
import { hasSessionCookie } from './page-reuse.js';

/** Headers of a page's API call that describe the call itself. */
const CALL_HEADERS = ['accept', 'content-type', 'x-requested-with'] as const;
/** Headers of the visitor's own request the API needs to see them as they are: who is signed in, which browser. */
const VISITOR_HEADERS = ['cookie', 'user-agent'] as const;

/**
 * What a page rendered for `visitor` gets (Astro.locals.page). Its API calls go through Fastify's
 * inject, so they meet every check a browser's call meets (the per-client rate limit first), from
 * `visitor.ip`: the connection's peer, or under TRUST_PROXY the address the nearest trusted proxy
 * saw. The visitor's X-Forwarded-For is not passed on, so nothing a client writes chooses whose
 * budget a page spends or whose view it counts; and every visitor no longer shares the loopback
 * address's budget, as they did when pages called the API over HTTP.
 */
export function pageContext(fastify: FastifyInstance, visitor: FastifyRequest, publicOrigin: string): PageContext {
  return {
    publicOrigin,
    fetchApi: (request) => callApiAs(fastify, visitor, request),
    session: hasSessionCookie(visitor.headers.cookie),
  };
}

async function callApiAs(fastify: FastifyInstance, visitor: FastifyRequest, request: Request): Promise<Response> {
  const { pathname, search } = new URL(request.url);
  if (!pathname.startsWith('/api/')) throw new TypeError(`A page calls only the API, not ${pathname}`);
  request.signal.throwIfAborted();
  // The page's request id: the API's access-log lines of a page share it.
  const headers: Record<string, string> = { 'x-request-id': visitor.id };
  for (const name of CALL_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  for (const name of VISITOR_HEADERS) {
    const value = visitor.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const payload = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const answer = await untilAborted(
    fastify.inject({
      method: request.method as HTTPMethods,
      url: pathname + search,
      headers,
      remoteAddress: visitor.ip,
      ...(payload ? { payload } : {}),
    }),
    request.signal,
  );
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(name, String(item));
  }
  const empty = answer.statusCode === 204 || answer.statusCode === 304 || request.method === 'HEAD';
  return new Response(empty ? null : answer.rawPayload, {
    status: answer.statusCode,
    statusText: answer.statusMessage,
    headers: responseHeaders,
  });
}

/** The page stops waiting when its call's signal fires (its timeout); the API finishes the request regardless. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
