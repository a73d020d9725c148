import { hasControlCharacters } from './text-rules.js';

/** Where a browser may be sent after signing in; shared by Google's callback and the sign-in pages. */
const BASE = 'http://fieldmarket.invalid';

/**
 * A post-sign-in route the browser may be sent to: a path on this site ("/messages?x=1"), or null.
 * Refused: other sites ("https://evil.example", "//evil.example"), backslashes ("/\evil.example",
 * which browsers read as "//"), control characters (browsers drop tabs and line breaks, so
 * "/\t/evil.example" would become "//evil.example"), and paths whose dot segments resolve to "//"
 * ("/..//evil.example", "/%2e%2e//evil.example"), also once their escapes are undone
 * ("/%2F%2Fevil.example", "/..%2F%2Fevil.example": a server that decodes before redirecting would
 * send the browser to "//evil.example"). The path checked is the resolved one, and it is the one returned.
 */
export function safeRedirect(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 1000 || !isSameSitePath(raw)) return null;
  const url = resolve(raw);
  if (!url || url.origin !== BASE || !isSameSitePath(url.pathname)) return null;
  const decoded = decode(url.pathname);
  const decodedUrl = decoded === null || !isSameSitePath(decoded) ? null : resolve(decoded);
  if (!decodedUrl || !isSameSitePath(decodedUrl.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A path a browser resolves on this site: one leading slash, no backslash, no control character. */
function isSameSitePath(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.includes('\\') && !hasControlCharacters(path, 'singleLine');
}

function resolve(path: string): URL | null {
  try {
    return new URL(path, BASE);
  } catch {
    return null;
  }
}

function decode(path: string): string | null {
  try {
    return decodeURIComponent(path);
  } catch {
    return null;
  }
}
