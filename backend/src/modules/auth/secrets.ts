import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random secret for a cookie or a link: 32 bytes, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a token: its SHA-256 (tokens are random, so no salt or slow hash is needed). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
