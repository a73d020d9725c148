import type { APIRoute } from 'astro';
import { siteOrigin } from '../lib/site-origin';

// Rendered per request: the Sitemap line must be an absolute address, and the public origin is known only at run time.
export const prerender = false;

export const GET: APIRoute = (context) =>
  new Response(`User-agent: *\nAllow: /\nDisallow: /post-listing\nDisallow: /staff\n\nSitemap: ${siteOrigin(context)}/sitemap.xml\n`, {
    headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'public, max-age=3600' },
  });
