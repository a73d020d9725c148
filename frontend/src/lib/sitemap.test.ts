import { describe, expect, it } from '@jest/globals';
import { siteOrigin } from './site-origin';
import { SITEMAP_MAX_URLS, sitemapXml } from './sitemap';

describe('sitemapXml', () => {
  it('escapes addresses and caps the list at 50,000', () => {
    expect(sitemapXml([{ loc: 'https://x.uk/a?b=1&c=2', lastmod: '2026-11-22' }])).toContain(
      '<url><loc>https://x.uk/a?b=1&amp;c=2</loc><lastmod>2026-11-22</lastmod></url>',
    );
    const many = Array.from({ length: SITEMAP_MAX_URLS + 5 }, (_, i) => ({ loc: `https://x.uk/${i}` }));
    expect(sitemapXml(many).match(/<url>/g)).toHaveLength(SITEMAP_MAX_URLS);
  });
});

describe('siteOrigin', () => {
  it('prefers PUBLIC_URL and falls back to the request', () => {
    expect(siteOrigin(new URL('http://127.0.0.1:3000/robots.txt'), { PUBLIC_URL: 'https://fieldmarket.co.uk/' })).toBe(
      'https://fieldmarket.co.uk',
    );
    expect(siteOrigin(new URL('http://127.0.0.1:3000/robots.txt'), {})).toBe('http://127.0.0.1:3000');
  });
});
