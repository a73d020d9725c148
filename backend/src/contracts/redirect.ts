/** Where a browser may be sent after signing in; shared by Google's callback and the sign-in pages. */
const BASE = 'http://fieldmarket.invalid';

/**
 * A post-sign-in route the browser may be sent to: a path on this site ("/messages?x=1"), or null.
 * Refused: other sites ("https://evil.example", "//evil.example"), backslashes ("/\evil.example",
 * which browsers read as "//"), and control characters (browsers drop tabs and line breaks, so
 * "/\t/evil.example" would become "//evil.example").
 */
export function safeRedirect(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 1000) return null;
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
