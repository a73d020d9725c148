/**
 * What the web process hands each page Astro renders on the server, as `Astro.locals.page`
 * (backend/src/web/page-context.ts builds it; frontend/src/lib/server-api.ts reads it).
 */
export interface PageContext {
  /**
   * The site's public origin: PUBLIC_URL, or the web process's default for it. Absolute links
   * (sitemap, robots.txt, canonical, og:url) use it, never the Host header a client sent.
   */
  publicOrigin: string;
  /**
   * Calls this process's /api as the visitor: in process (no loopback connection), from the
   * address the web process resolved for them, with their cookies and browser. Only the path and
   * query of the request's URL are used.
   */
  fetchApi(request: Request): Promise<Response>;
  /**
   * Whether the request carries a session cookie: the page is then a member's own (never reused for others,
   * never stored by their browser); without one it is a visitor's, the same for every visitor at that URL.
   */
  session: boolean;
}

/**
 * Set by a page whose HTML for a visitor without a session depends only on its URL and what every visitor sees
 * alike (browse, rentals, the category pages, sign-in, a public profile): the web process may then answer the same URL from that HTML until the listings
 * change or the reuse time passes (backend/src/web/page-reuse.ts). Never sent to the browser.
 */
export const REUSE_FOR_VISITORS_HEADER = 'x-fieldmarket-reuse-for-visitors';
