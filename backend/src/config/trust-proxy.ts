import { BlockList, isIP } from 'node:net';

/** TRUST_PROXY as configured: off, a number of proxy hops, or the proxies' addresses and CIDR ranges. */
export type TrustProxy = false | number | string[];

/** Names proxy-addr (Fastify's resolver) accepts for well-known ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
const MAX_HOPS = 10;

const FORMS = `false, a number of proxies in front of the app (e.g. 1) or a comma-separated list of their addresses or CIDR ranges (e.g. 10.0.0.0/8,127.0.0.1)`;

/**
 * Reads TRUST_PROXY. With a hop count or a list of proxies, the client address is the one the
 * nearest trusted proxy saw, so entries a client writes at the left of X-Forwarded-For are
 * ignored. "true" is refused rather than guessed: it used to trust every hop, the client's own
 * forged ones included, and neither "one proxy" nor "any proxy" is safe to assume.
 */
export function parseTrustProxy(raw: string): { value: TrustProxy } | { problem: string } {
  const text = raw.trim().toLowerCase();
  if (['false', 'no', '0'].includes(text)) return { value: false };
  if (['true', 'yes'].includes(text)) {
    return { problem: `no longer accepts "${raw}", which trusted forged X-Forwarded-For entries; set it to ${FORMS}` };
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= MAX_HOPS ? { value: hops } : { problem: `must be at most ${MAX_HOPS} proxies (got "${raw}")` };
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || invalid.length > 0) return { problem: `must be ${FORMS} (got "${raw}")` };
  return { value: entries };
}

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** Addresses a proxy of ours connects from when only a hop count is configured. */
const PRIVATE_NETWORKS = new BlockList();
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
] as const) {
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE_NETWORKS.addSubnet(network, prefix, 'ipv6');

/**
 * Fastify's `trustProxy` option. Fastify ignores a bare hop count (a client reaching the app
 * directly could then choose its own address), so a count becomes a function that trusts that
 * many hops only when the nearest one connects from a private or loopback address: a direct
 * client from the internet is taken at its socket address.
 */
export function fastifyTrustProxy(trustProxy: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy !== 'number') return trustProxy;
  const hops = trustProxy;
  return (address, hop) => hop < hops && (hop > 0 || isPrivateAddress(address));
}

function isPrivateAddress(address: string): boolean {
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  const family = isIP(v4);
  return family !== 0 && PRIVATE_NETWORKS.check(v4, family === 4 ? 'ipv4' : 'ipv6');
}
