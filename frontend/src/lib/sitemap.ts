/** A sitemap file holds at most 50,000 addresses (sitemaps.org). */
export const SITEMAP_MAX_URLS = 50_000;

/** The public pages that are always there. */
export const STATIC_PATHS = [
  '/',
  '/browse',
  '/rent',
  '/categories',
  '/land',
  '/equipment',
  '/seeds-plants',
  '/livestock',
  '/sell',
  '/contact',
  '/about',
  '/support',
  '/blog',
  '/success-stories',
  '/roadmap',
  '/local-seo',
  '/community-guidelines',
  '/terms',
  '/privacy',
  '/feedback',
] as const;

const XML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
const xml = (text: string) => text.replace(/[&<>"']/g, (char) => XML_ENTITIES[char] ?? char);

export function sitemapXml(entries: ReadonlyArray<{ loc: string; lastmod?: string }>): string {
  const urls = entries
    .slice(0, SITEMAP_MAX_URLS)
    .map((entry) => `<url><loc>${xml(entry.loc)}</loc>${entry.lastmod ? `<lastmod>${xml(entry.lastmod)}</lastmod>` : ''}</url>`)
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
}
