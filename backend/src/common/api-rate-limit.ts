import { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import type { AppConfig } from '../config/env.js';
import type { RateLimitStore } from '../infra/rate-limit/rate-limit-store.js';
import { TooManyRequestsException } from './errors.js';

const STORE_WARNING_INTERVAL_MS = 60_000;

/**
 * The per-client limit on /api, counted in a store every web process shares. Route limits (the
 * contact form's) apply on top. Health probes are exempt: load balancers and monitors probe from
 * one address (behind a proxy, possibly everyone's), each probe is cheap (one shared check every
 * few seconds), and a starved probe would take a healthy instance out of service. When the store
 * cannot be reached the request goes through: an outage of the counters must not become an outage
 * of the API.
 */
export function limitApiRequests(store: RateLimitStore, { limit, windowSeconds }: AppConfig['apiRateLimit']) {
  const logger = new Logger('RateLimit');
  let lastWarning = 0;
  return async (request: FastifyRequest): Promise<void> => {
    if (isHealthProbe(request)) return;
    let hit;
    try {
      hit = await store.hit(clientKey(request.ip), windowSeconds);
    } catch (error) {
      if (Date.now() - lastWarning > STORE_WARNING_INTERVAL_MS) {
        lastWarning = Date.now();
        logger.warn(`rate-limit store unavailable, requests are not being counted: ${String(error)}`);
      }
      return;
    }
    if (hit.count > limit) {
      const wait = hit.resetSeconds;
      throw new TooManyRequestsException(`Too many requests. Please wait ${wait} second${wait === 1 ? '' : 's'} and try again.`, wait);
    }
  };
}

function isHealthProbe(request: FastifyRequest): boolean {
  const path = request.url.split('?')[0]?.replace(/\/$/, '');
  return (
    (path === '/api/health' || path === '/api/health/live' || path === '/api/health/ready') &&
    ['GET', 'HEAD', 'OPTIONS'].includes(request.method)
  );
}

/**
 * IPv4 addresses count one by one; IPv6 ones by their /64 network, which a single subscriber
 * usually holds whole (counting addresses would let one client rotate through 2^64 of them).
 */
export function clientKey(ip: string): string {
  const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : (ip.split('%')[0] ?? ip);
  if (isIP(address) !== 6) return address;
  const [head = '', tail] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  // "::" stands for as many zero groups as are missing; a trailing dotted IPv4 part fills two.
  const missing = 8 - headGroups.length - tailGroups.length - (tail?.includes('.') ? 1 : 0);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(missing).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((group) => parseInt(group, 16).toString(16))
    .join(':')}::/64`;
}
