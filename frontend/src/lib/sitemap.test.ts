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
  const site = new URL('https://fieldmarket.co.uk');
  const fromWebProcess = {
    page: { publicOrigin: 'http://localhost:3000', fetchApi: () => Promise.reject(new Error('unused')), session: false },
  };

  it("takes the web process's public origin, whatever the environment says", () => {
    expect(siteOrigin({ locals: fromWebProcess, site }, { PUBLIC_URL: 'https://elsewhere.example' })).toBe('http://localhost:3000');
  });

  it('outside the web process prefers PUBLIC_URL, then the configured site; never a request', () => {
    expect(siteOrigin({ locals: {}, site }, { PUBLIC_URL: 'https://staging.fieldmarket.co.uk/' })).toBe(
      'https://staging.fieldmarket.co.uk',
    );
    expect(siteOrigin({ locals: {}, site }, {})).toBe('https://fieldmarket.co.uk');
    expect(siteOrigin({ locals: {}, site }, { PUBLIC_URL: 'not a url' })).toBe('https://fieldmarket.co.uk');
  });
});

describe('canonicalUrl', () => {
  const context = { locals: {}, site: new URL('http://localhost') };
  it('is the path on the public origin, without trailing slash or query', () => {
    expect(canonicalUrl(context, '/about/?utm_source=x', { PUBLIC_URL: 'https://fieldmarket.co.uk' })).toBe(
      'https://fieldmarket.co.uk/about',
    );
    expect(canonicalUrl(context, '/', {})).toBe('http://localhost/');
    expect(canonicalUrl(context, '/blog/buying-a-used-tractor#checks', {})).toBe('http://localhost/blog/buying-a-used-tractor');
  });
  it('never names another host', () => {
    expect(canonicalUrl(context, '//evil.example/x', {})).toBe('http://localhost/evil.example/x');
  });
});
