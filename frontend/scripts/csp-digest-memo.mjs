/**
 * A Vite plugin for the server build: Astro hashes each server-rendered page's inline styles and scripts for its
 * Content-Security-Policy on every request (RenderContext.createResult), though they are the route's own and the
 * same each time; at a million listings that hashing (WebCrypto jobs) was the largest single frame of a listing
 * page's CPU profile (8.6%, bench/page-render.mjs --cpu-prof). This keeps each digest once computed, by algorithm
 * and content, at most MEMO_ENTRIES of each. Astro's function is patched where it is defined; the build fails if it
 * is no longer there (an Astro upgrade), rather than losing the memo unseen.
 */
export const ASTRO_DIGEST = 'async function generateCspDigest(data, algorithm) {';
const ENCRYPTION_MODULE = /[\\/]astro[\\/]dist[\\/]core[\\/]encryption\.js$/;
const MEMO_ENTRIES = 512;

const MEMO = `
const fieldmarketCspDigests = new Map();
function generateCspDigest(data, algorithm) {
  let digests = fieldmarketCspDigests.get(algorithm);
  if (!digests) fieldmarketCspDigests.set(algorithm, (digests = new Map()));
  const known = digests.get(data);
  if (known) return known;
  if (digests.size >= ${MEMO_ENTRIES}) digests.clear();
  const digest = computeCspDigest(data, algorithm);
  digests.set(data, digest);
  digest.catch(() => digests.delete(data));
  return digest;
}
async function computeCspDigest(data, algorithm) {`;

/** Astro's encryption module with the memo in front of its digest; other modules unchanged. */
export function withCspDigestMemo(code, id) {
  if (!ENCRYPTION_MODULE.test(id)) return null;
  if (!code.includes(ASTRO_DIGEST))
    throw new Error(`${id} no longer defines generateCspDigest as expected: update scripts/csp-digest-memo.mjs`);
  return code.replace(ASTRO_DIGEST, MEMO);
}

export function cspDigestMemo() {
  return { name: 'fieldmarket:csp-digest-memo', transform: (code, id) => withCspDigestMemo(code, id.split('?')[0]) };
}
