import { ForbiddenException } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/env.js';
import { ACCOUNT_TEXTS } from '../contracts/account.js';

/**
 * The defence against cross-site request forgery, in two halves that judge the same calls:
 * - refuseCrossSiteRequests (every /api call): a browser's state-changing call must come from an
 *   allowed Origin;
 * - refuseCookieCallWithoutClientHeader (the access guard): a state-changing call that carries the
 *   session cookie must also carry X-Requested-With, which the site's pages send and a form or image
 *   on another site cannot add.
 */

export const CROSS_SITE_MESSAGE = 'Cross-site requests are not allowed.';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Whether a call with this HTTP method (any case) can change state, so the defence judges it. */
export function isStateChanging(method: string): boolean {
  return STATE_CHANGING.has(method.toUpperCase());
}

/**
 * True for our own origin (PUBLIC_URL) and the origins listed in CORS_ORIGINS. Given the
 * request's Host, also for the site under the name it was reached by (http://127.0.0.1:3000 while
 * PUBLIC_URL says localhost): a page on another site cannot send our Host with its own Origin.
 * For the HTTP API and the socket.io handshake alike.
 */
export function isAllowedOrigin(origin: string, config: Pick<AppConfig, 'publicUrl' | 'corsOrigins'>, host?: string): boolean {
  const normalized = originOf(origin);
  if (normalized === undefined) return false; // "null" (sandboxed frames, file://) or garbage
  if (normalized === originOf(config.publicUrl) || config.corsOrigins.some((allowed) => originOf(allowed) === normalized)) return true;
  return host !== undefined && new URL(normalized).host === host.toLowerCase();
}

function originOf(value: string): string | undefined {
  try {
    const { origin } = new URL(value);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/**
 * Refuses a state-changing call a browser makes on behalf of another site (cross-site request
 * forgery): its Origin must be allowed. Without an Origin the caller is not a browser (curl, a
 * server), unless Sec-Fetch-Site says a browser sent it from elsewhere.
 */
export function refuseCrossSiteRequests(config: Pick<AppConfig, 'publicUrl' | 'corsOrigins'>) {
  return (request: FastifyRequest): void => {
    if (!isStateChanging(request.method)) return;
    const origin = request.headers.origin;
    if (origin !== undefined) {
      if (!isAllowedOrigin(origin, config, request.headers.host)) throw new ForbiddenException(CROSS_SITE_MESSAGE);
      return;
    }
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') throw new ForbiddenException(CROSS_SITE_MESSAGE);
  };
}

/** The second half: a state-changing call carrying the session cookie (`hasSessionCookie`) needs X-Requested-With. */
export function refuseCookieCallWithoutClientHeader(request: FastifyRequest, hasSessionCookie: boolean): void {
  if (hasSessionCookie && isStateChanging(request.method) && !request.headers['x-requested-with']) {
    throw new ForbiddenException(ACCOUNT_TEXTS.missingClientHeader);
  }
}
