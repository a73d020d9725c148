/**
 * The site's public address for absolute links (sitemap, robots.txt, canonical): PUBLIC_URL when
 * the server has it, else the address the request came to.
 */
export function siteOrigin(
  requestUrl: URL,
  env: Readonly<Record<string, string | undefined>> = typeof process === 'undefined' ? {} : process.env,
): string {
  const configured = env['PUBLIC_URL']?.trim();
  if (configured) {
    try {
      return new URL(configured).origin;
    } catch {
      // PUBLIC_URL is validated at boot; fall back to the request's address all the same.
    }
  }
  return requestUrl.origin;
}
