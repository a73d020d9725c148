import { Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import type { AppConfig } from '../config/env.js';
import type { RateLimitHit, RateLimitStore } from '../infra/rate-limit/rate-limit-store.js';
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
  const counter = new LeasedHits(store, windowSeconds, Math.max(1, Math.floor(limit / LEASES_PER_WINDOW)));
  const keys = new ClientKeys();
  let lastWarning = 0;
  const refuseOverLimit = (hit: RateLimitHit): void => {
    if (hit.count > limit) {
      const wait = hit.resetSeconds;
      throw new TooManyRequestsException(`Too many requests. Please wait ${wait} second${wait === 1 ? '' : 's'} and try again.`, wait);
    }
  };
  const passWhileStoreDown = (error: unknown): void => {
    if (Date.now() - lastWarning > STORE_WARNING_INTERVAL_MS) {
      lastWarning = Date.now();
      logger.warn(`rate-limit store unavailable, requests are not being counted: ${String(error)}`);
    }
  };
  // Synchronous while the client's lease lasts (most requests): no promise for a count kept in memory.
  return (request: FastifyRequest): void | Promise<void> => {
    if (isHealthProbe(request)) return;
    const key = keys.of(request.ip);
    const leased = counter.spendLeased(key);
    if (leased) return refuseOverLimit(leased);
    return counter.hit(key).then(refuseOverLimit, passWhileStoreDown);
  };
}

/** A client's allowance is taken from the shared store in about this many pieces per window. */
const LEASES_PER_WINDOW = 100;
/** Clients this process remembers leases for; beyond, the ones whose window ended are forgotten. */
const MAX_LEASES = 50_000;

/**
 * Counts a client's requests in the shared store a lease at a time: one round trip reserves
 * `leaseSize` hits, which this process then spends in memory. At the default limit (600 a
 * minute, leases of 6) a busy client costs the store a sixth of the round trips. The price is
 * precision: hits reserved by one process and not spent count against the client in the others,
 * so with N web processes a client may be refused up to (N - 1) x leaseSize requests early; with
 * one process (or a lease of one, when the limit is under 200) the count is exact.
 */
export class LeasedHits {
  private readonly leases = new Map<string, { count: number; left: number; endsAt: number }>();
  private readonly reserving = new Map<string, Promise<RateLimitHit>>();

  constructor(
    private readonly store: RateLimitStore,
    private readonly windowSeconds: number,
    private readonly leaseSize: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** A hit from the client's lease held in this process, or undefined when it has none left (then call hit). */
  spendLeased(key: string): RateLimitHit | undefined {
    const at = this.now();
    const lease = this.leases.get(key);
    if (!lease || lease.left <= 0 || lease.endsAt <= at) return undefined;
    lease.left--;
    lease.count++;
    return { count: lease.count, resetSeconds: Math.max(1, Math.ceil((lease.endsAt - at) / 1000)) };
  }

  async hit(key: string): Promise<RateLimitHit> {
    for (;;) {
      const leased = this.spendLeased(key);
      if (leased) return leased;
      const at = this.now();
      if (this.leaseSize === 1) return this.reserve(key, at);
      // Requests arriving while a lease is being taken wait for it rather than each taking one:
      // fifty at once would otherwise reserve fifty leases and spend one hit of each.
      const pending = this.reserving.get(key);
      if (pending) {
        await pending;
        continue;
      }
      const reservation = this.reserve(key, at);
      this.reserving.set(key, reservation);
      try {
        return await reservation;
      } finally {
        this.reserving.delete(key);
      }
    }
  }

  private async reserve(key: string, at: number): Promise<RateLimitHit> {
    const reserved = await this.store.hit(key, this.windowSeconds, this.leaseSize);
    // The store counted the whole lease; this request is its first hit.
    const count = reserved.count - this.leaseSize + 1;
    if (this.leaseSize > 1) {
      if (this.leases.size >= MAX_LEASES) this.forgetEnded(at);
      this.leases.set(key, { count, left: this.leaseSize - 1, endsAt: at + reserved.resetSeconds * 1000 });
    }
    return { count, resetSeconds: reserved.resetSeconds };
  }

  private forgetEnded(at: number): void {
    for (const [key, lease] of this.leases) if (lease.endsAt <= at || lease.left === 0) this.leases.delete(key);
    if (this.leases.size >= MAX_LEASES) this.leases.clear();
  }
}

/** The probes the limit leaves alone (also left without a 429 in the API contract). */
export const HEALTH_PROBE_PATHS: readonly string[] = ['/api/health', '/api/health/live', '/api/health/ready'];

const PROBE_PATHS: ReadonlySet<string> = new Set(HEALTH_PROBE_PATHS.flatMap((path) => [path, `${path}/`]));
const PROBE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

function isHealthProbe(request: FastifyRequest): boolean {
  if (!PROBE_METHODS.has(request.method)) return false;
  const queryAt = request.url.indexOf('?');
  return PROBE_PATHS.has(queryAt === -1 ? request.url : request.url.slice(0, queryAt));
}

/** Most requests come from addresses seen a moment ago: their keys are kept rather than parsed again. */
const MAX_CLIENT_KEYS = 10_000;

class ClientKeys {
  private readonly keys = new Map<string, string>();

  of(ip: string): string {
    let key = this.keys.get(ip);
    if (key === undefined) {
      if (this.keys.size >= MAX_CLIENT_KEYS) this.keys.clear();
      key = clientKey(ip);
      this.keys.set(ip, key);
    }
    return key;
  }
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
