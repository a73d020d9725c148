import type { APIRoute } from 'astro';
import { getCollection } from 'astro:content';
import { PAGE_SIZE_MAX } from '@contracts/listings';
import { settle, type ListingPage } from '../features/listings/listings-api';
import { routeQuery, type RouteQuery } from '../lib/route-query';
import { pageApi } from '../lib/server-api';
import { siteOrigin } from '../lib/site-origin';
import { SITEMAP_MAX_URLS, sitemapXml, STATIC_PATHS } from '../lib/sitemap';

// Rendered per request from the live listings.
export const prerender = false;

export const GET: APIRoute = async (context) => {
  const origin = siteOrigin(context);
  const api = pageApi(context);
  const entries: Array<{ loc: string; lastmod?: string }> = STATIC_PATHS.map((path) => ({ loc: `${origin}${path}` }));
  for (const article of await getCollection('blog')) {
    entries.push({ loc: `${origin}/blog/${article.id}`, lastmod: article.data.date.toISOString().slice(0, 10) });
  }
  const fixedEntries = entries.length;
  let cursor: string | null = null;
  // Pages through GET /api/listings by cursor until the last page or the sitemap's limit.
  do {
    const query: RouteQuery<'/api/listings'> = routeQuery('/api/listings', { limit: PAGE_SIZE_MAX, sort: 'newest', cursor });
    const outcome = await settle<ListingPage>(() => api.GET('/api/listings', { params: { query }, signal: AbortSignal.timeout(15_000) }));
    if (!outcome.ok) {
      if (entries.length === fixedEntries) return new Response('Sitemap unavailable', { status: 503, headers: { 'retry-after': '60' } });
      break;
    }
    for (const listing of outcome.data.listings) {
      if (entries.length >= SITEMAP_MAX_URLS) break;
      entries.push({ loc: `${origin}/listing/${listing.id}`, lastmod: listing.created_at.slice(0, 10) });
    }
    cursor = outcome.data.next_cursor;
  } while (cursor && entries.length < SITEMAP_MAX_URLS);
  return new Response(sitemapXml(entries), {
    headers: { 'content-type': 'application/xml; charset=utf-8', 'cache-control': 'public, max-age=600' },
  });
};
