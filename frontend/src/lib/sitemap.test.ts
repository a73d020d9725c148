import { describe, expect, it } from '@jest/globals';
import { canonicalUrl, siteOrigin } from './site-origin';
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

describe('canonicalUrl', () => {
  const page = new URL('http://localhost/about/?utm_source=x');
  it('is the path on the public origin, without trailing slash or query', () => {
    expect(canonicalUrl(page, '/about/?utm_source=x', { PUBLIC_URL: 'https://fieldmarket.co.uk' })).toBe('https://fieldmarket.co.uk/about');
    expect(canonicalUrl(page, '/', {})).toBe('http://localhost/');
    expect(canonicalUrl(page, '/blog/buying-a-used-tractor#checks', {})).toBe('http://localhost/blog/buying-a-used-tractor');
  });
  it('never names another host', () => {
    expect(canonicalUrl(page, '//evil.example/x', {})).toBe('http://localhost/evil.example/x');
  });
});
