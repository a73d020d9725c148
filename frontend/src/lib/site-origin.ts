/** The parts of Astro's page or endpoint context the site's public origin comes from. */
export interface OriginContext {
  locals: App.Locals;
  /** astro.config's `site`. */
  site: URL | undefined;
}

/**
 * The site's public address for absolute links (sitemap, robots.txt, canonical, og:url), never
 * the Host a request named (a forged Host would otherwise put another site's address in them):
 * in the web process, the public origin it hands each page (PUBLIC_URL or its default); where a
 * page is rendered without it (prerendered at build time, astro dev), PUBLIC_URL, else `site`.
 */
export function siteOrigin(
  { locals, site }: OriginContext,
  env: Readonly<Record<string, string | undefined>> = typeof process === 'undefined' ? {} : process.env,
): string {
  if (locals.page) return locals.page.publicOrigin;
  const configured = env['PUBLIC_URL']?.trim();
  if (configured) {
    try {
      return new URL(configured).origin;
    } catch {
      // Checked only when the web process starts; the configured site stands in meanwhile.
    }
  }
  if (!site) throw new Error('No public address for absolute links: set PUBLIC_URL, or `site` in astro.config.mjs');
  return site.origin;
}

/**
 * The page's canonical address: its path (trailing slash and query dropped) on the site's public
 * origin (siteOrigin).
 */
export function canonicalUrl(
  context: OriginContext,
  path: string,
  env: Readonly<Record<string, string | undefined>> = typeof process === 'undefined' ? {} : process.env,
): string {
  // One leading slash: a path starting '//' would otherwise name another host.
  const clean = `/${(path.split(/[?#]/)[0] ?? '').replace(/^\/+/, '').replace(/\/+$/, '')}`;
  return new URL(clean, siteOrigin(context, env)).href;
}
