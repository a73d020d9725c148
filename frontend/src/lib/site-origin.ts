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

/**
 * The page's canonical address: its path (trailing slash and query dropped) on the site's public
 * origin. Prerendered pages are rendered at build time, where the origin is PUBLIC_URL when the
 * build has it, else the configured `site` (astro.config.mjs).
 */
export function canonicalUrl(
  pageUrl: URL,
  path: string,
  env: Readonly<Record<string, string | undefined>> = typeof process === 'undefined' ? {} : process.env,
): string {
  // One leading slash: a path starting '//' would otherwise name another host.
  const clean = `/${(path.split(/[?#]/)[0] ?? '').replace(/^\/+/, '').replace(/\/+$/, '')}`;
  return new URL(clean, siteOrigin(pageUrl, env)).href;
}
