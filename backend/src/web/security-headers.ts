import fastifyHelmet from '@fastify/helmet';
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

/**
 * Security headers on every response the web process sends through Fastify (pages, assets, /api).
 * HSTS only when the site is served over https: PUBLIC_URL is https, or this request came over
 * https (directly, or through a proxy trusted with TRUST_PROXY); a site reachable only over http
 * must never tell browsers to insist on https.
 */
export async function registerSecurityHeaders(fastify: FastifyInstance, config: AppConfig): Promise<void> {
  await fastify.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: DEFAULT_CSP_DIRECTIVES },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: false,
  });
  const publicOverHttps = config.publicUrl.startsWith('https://');
  // On the raw response, like helmet's own, so pages Astro renders on a hijacked reply carry them too.
  fastify.addHook('onRequest', async (request, reply) => {
    reply.raw.setHeader('permissions-policy', PERMISSIONS_POLICY);
    // No includeSubDomains: other hosts under the same domain are not ours to decide for.
    if (publicOverHttps || request.protocol === 'https') reply.raw.setHeader('strict-transport-security', `max-age=${ONE_YEAR_SECONDS}`);
  });
}
