import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/env.js';

/**
 * The strictest policy: what /api JSON, assets and any other response carry. Pages replace it
 * with the policy Astro computed for them (script and style hashes, see frontend.ts and
 * frontend/astro.config.mjs).
 */
const DEFAULT_CSP_DIRECTIVES = {
  'default-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
};

/**
 * No page uses these features yet, so they are off for every origin. When one does (the listing
 * wizard taking photos, location search), allow it for our own origin only, e.g. camera=(self).
 */
export const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(), usb=()';

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;
// No includeSubDomains: other hosts under the same domain are not ours to decide for.
const HSTS: [string, string] = ['strict-transport-security', `max-age=${ONE_YEAR_SECONDS}`];

/**
 * The headers helmet sends by default, as configured here (frame-ancestors and X-Frame-Options
 * deny framing, a referrer for our own origin only), plus Permissions-Policy. They are the same
 * for every response, so they are written out once here: helmet rebuilt them on every request,
 * a quarter of the cost of a small API response.
 */
const SECURITY_HEADERS: ReadonlyArray<[string, string]> = [
  [
    'content-security-policy',
    Object.entries(DEFAULT_CSP_DIRECTIVES)
      .map(([directive, sources]) => `${directive} ${sources.join(' ')}`)
      .join(';'),
  ],
  ['cross-origin-opener-policy', 'same-origin'],
  ['cross-origin-resource-policy', 'same-origin'],
  ['origin-agent-cluster', '?1'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
  ['x-content-type-options', 'nosniff'],
  ['x-dns-prefetch-control', 'off'],
  ['x-download-options', 'noopen'],
  ['x-frame-options', 'DENY'],
  ['x-permitted-cross-domain-policies', 'none'],
  ['x-xss-protection', '0'],
  ['permissions-policy', PERMISSIONS_POLICY],
];

/**
 * Listing photos' variants (/media/images/<id>/<width>.<format>): alert e-mails show them, and
 * webmail loads an e-mail's images in the reader's browser from its own origin, which
 * Cross-Origin-Resource-Policy: same-origin would block. They are public files anyway.
 */
const IMAGE_VARIANT = /^\/media\/images\/[^/?]+\/\d+\.[a-z]+(?:\?.*)?$/;

/**
 * Security headers on every response the web process sends through Fastify (pages, assets, /api).
 * HSTS only when the site is served over https: PUBLIC_URL is https, or this request came over
 * https (directly, or through a proxy trusted with TRUST_PROXY); a site reachable only over http
 * must never tell browsers to insist on https.
 */
export function registerSecurityHeaders(fastify: FastifyInstance, config: AppConfig): void {
  const publicOverHttps = config.publicUrl.startsWith('https://');
  const always = publicOverHttps ? [...SECURITY_HEADERS, HSTS] : SECURITY_HEADERS;
  // On the raw response, so pages Astro renders on a hijacked reply carry them too.
  fastify.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of always) reply.raw.setHeader(name, value);
    if (IMAGE_VARIANT.test(request.url)) reply.raw.setHeader('cross-origin-resource-policy', 'cross-origin');
    if (!publicOverHttps && request.protocol === 'https') reply.raw.setHeader(...HSTS);
    done();
  });
}
