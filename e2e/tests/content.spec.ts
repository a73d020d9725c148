import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { watchForProblems } from './page-problems.js';

const BLOG_SLUGS = readdirSync(join(import.meta.dirname, '../../frontend/src/content/blog'))
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''));

/** The content pages, each with the words its title and its one h1 carry. */
const CONTENT_PAGES: ReadonlyArray<{ path: string; title: RegExp; heading: RegExp }> = [
  { path: '/about', title: /^About Us \| Fieldmarket$/, heading: /^About Fieldmarket$/ },
  { path: '/support', title: /^Support Centre \| Fieldmarket$/, heading: /^Support Centre$/ },
  { path: '/blog', title: /^Blog \| Fieldmarket$/, heading: /^Fieldmarket Blog$/ },
  { path: '/terms', title: /^Terms of Service \| Fieldmarket$/, heading: /^Terms of Service$/ },
  { path: '/privacy', title: /^Privacy Policy \| Fieldmarket$/, heading: /^Privacy Policy$/ },
  { path: '/community-guidelines', title: /^Community Guidelines \| Fieldmarket$/, heading: /^Community Guidelines$/ },
  { path: '/roadmap', title: /^Roadmap \| Fieldmarket$/, heading: /^Roadmap$/ },
  { path: '/success-stories', title: /^Success Stories \| Fieldmarket$/, heading: /^Success Stories$/ },
  { path: '/local-seo', title: /^Global Marketplace: 15 regions, open 24\/7 \| Fieldmarket$/, heading: /every corner of the UK/ },
  { path: '/coming-soon', title: /^Coming Soon \| Fieldmarket$/, heading: /^Coming Soon$/ },
  { path: '/sell', title: /^Sell on Fieldmarket$/, heading: /^Sell on Fieldmarket$/ },
  ...BLOG_SLUGS.map((slug) => ({ path: `/blog/${slug}`, title: / \| Fieldmarket$/, heading: /\w/ })),
];

/** Same-site link targets on the page, without fragments. */
async function sameSiteLinks(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const hrefs = await page.locator('a[href]').evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  return hrefs
    .map((href) => new URL(href))
    .filter((url) => url.origin === origin)
    .map((url) => `${url.pathname}${url.search}`);
}

test.describe('content pages', () => {
  test('each renders with its title, heading, description, canonical address and OpenGraph tags, and no console errors', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    expect(BLOG_SLUGS).toHaveLength(8);
    const problems = await watchForProblems(page);
    for (const { path, title, heading } of CONTENT_PAGES) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      await expect(page, path).toHaveTitle(title);
      await expect(page.getByRole('heading', { level: 1 }), path).toHaveText(heading);
      await expect(page.locator('meta[name="description"]'), path).toHaveAttribute('content', /.{50,}/);
      const canonical = page.locator('link[rel="canonical"]');
      await expect(canonical, path).toHaveAttribute('href', new RegExp(`^https?://[^/]+${path}$`));
      await expect(page.locator('meta[property="og:url"]'), path).toHaveAttribute('content', (await canonical.getAttribute('href')) ?? '');
      await expect(page.locator('meta[property="og:title"]'), path).toHaveAttribute('content', /\w/);
      await expect(page.locator('meta[property="og:type"]'), path).toHaveAttribute(
        'content',
        path.startsWith('/blog/') ? 'article' : 'website',
      );
    }
    expect(await problems()).toEqual([]);
  });

  test('every same-site link on the content pages leads to a page that exists', async ({ page }) => {
    test.setTimeout(180_000);
    const targets = new Map<string, string>();
    for (const { path } of CONTENT_PAGES) {
      await page.goto(path);
      for (const target of await sameSiteLinks(page)) if (!targets.has(target)) targets.set(target, path);
    }
    expect(targets.size).toBeGreaterThan(40);
    const broken: string[] = [];
    for (const [target, foundOn] of targets) {
      const response = await page.request.get(target, { maxRedirects: 5 });
      if (response.status() >= 400) broken.push(`${target} (linked from ${foundOn}) answered ${response.status()}`);
    }
    expect(broken).toEqual([]);
  });

  test('the sitemap lists the content pages and every article', async ({ request }) => {
    const sitemap = await (await request.get('/sitemap.xml')).text();
    const locations = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => new URL(match[1] ?? '').pathname);
    for (const { path } of CONTENT_PAGES.filter((page) => page.path !== '/coming-soon')) expect(locations).toContain(path);
  });
});

test.describe('the blog', () => {
  test('lists eight articles, the newest featured, filters by category chip, and an article opens with its reading time', async ({
    page,
  }) => {
    await page.goto('/blog');
    const featured = page.getByTestId('blog-featured');
    await expect(featured).toContainText('Featured');
    const list = page.getByTestId('blog-list').getByRole('listitem');
    await expect(list).toHaveCount(7);

    // The chips count their articles: All counts eight; choosing a category shows only its articles.
    const chips = page.getByRole('group', { name: 'Filter articles by category' });
    await expect(chips.getByRole('button', { name: 'All (8)' })).toHaveAttribute('aria-pressed', 'true');
    const safety = chips.getByRole('button', { name: /^Safety \((\d+)\)$/ });
    const safetyCount = Number(/\((\d+)\)/.exec((await safety.textContent()) ?? '')?.[1]);
    await safety.click();
    await expect(safety).toHaveAttribute('aria-pressed', 'true');
    const shown = page.locator('[data-blog-category]:visible');
    await expect(shown).toHaveCount(safetyCount);
    await expect(page.getByRole('status').filter({ hasText: 'Showing' })).toHaveText(`Showing ${safetyCount} articles`);
    await chips.getByRole('button', { name: 'All (8)' }).click();
    await expect(shown).toHaveCount(8);

    const first = list.first().getByRole('link');
    const title = (await first.textContent())?.trim() ?? '';
    await first.click();
    await expect(page).toHaveURL(/\/blog\/[a-z0-9-]+$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(title);
    await expect(page.getByTestId('reading-time')).toHaveText(/^\d+ min read$/);
    await expect(page.getByTestId('article-meta')).toContainText('By Fieldmarket');
    await page.getByRole('link', { name: '← All articles' }).click();
    await expect(page).toHaveURL(/\/blog$/);
  });

  test('an unknown article is the not-found page', async ({ page }) => {
    const response = await page.goto('/blog/no-such-article');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  });
});

test.describe('the support centre', () => {
  test('FAQ answers open and close from the keyboard', async ({ page }) => {
    await page.goto('/support');
    const faq = page.locator('details').filter({ hasText: 'How do I delete my account?' });
    const summary = faq.locator('summary');
    const answer = faq.getByText('Deletion happens at once and cannot be undone');
    await expect(answer).toBeHidden();
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect(answer).toBeVisible();
    await expect(faq.getByRole('link', { name: 'Account' })).toHaveAttribute('href', '/profile#account');
    await page.keyboard.press('Space');
    await expect(answer).toBeHidden();
    await expect(page.locator('details')).toHaveCount(7);
  });

  test('shows the two support channels, four help topics with their article counts and Contact Support', async ({ page }) => {
    await page.goto('/support');
    const chat = page.getByTestId('live-chat');
    await expect(chat).toContainText('We do not offer live chat yet');
    await expect(chat.getByRole('link', { name: 'Use the contact form' })).toHaveAttribute('href', '/contact');
    const email = page.getByTestId('email-support');
    await expect(email).toContainText('24/7');
    await expect(email).toContainText('we reply within 24 hours');
    await expect(email.getByRole('link', { name: 'Email Support' })).toHaveAttribute('href', 'mailto:support@fieldmarket.co.uk');
    for (const [topic, count] of [
      ['Getting Started', 12],
      ['Buying & Renting', 8],
      ['Selling & Listings', 15],
      ['Account & Security', 20],
    ] as const) {
      await expect(page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: topic }) })).toContainText(
        `${count} articles`,
      );
    }
    await expect(page.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', 'mailto:support@fieldmarket.co.uk');
    await expect(page.getByRole('link', { name: 'Go to the contact page' })).toHaveAttribute('href', '/contact');
  });
});

test.describe('the other content pages', () => {
  test("roadmap, success stories, local marketplace and sell show the spec's structure", async ({ page }) => {
    await page.goto('/roadmap');
    await expect(page.locator('.roadmap__phase')).toHaveCount(7);
    await expect(page.getByTestId('coming-soon-list').getByRole('listitem')).toHaveCount(15);
    for (const href of ['/feedback', '/contact', '/post-listing', '/about'])
      await expect(page.locator(`main a[href="${href}"]`).first()).toBeVisible();

    // /success-stories before and after a story is approved: staff.spec (the stories change with approvals).

    await page.goto('/local-seo');
    await expect(page.getByTestId('regions').getByRole('listitem')).toHaveCount(15);
    await expect(page.getByRole('heading', { name: 'Open 24/7' })).toBeVisible();

    await page.goto('/sell');
    await expect(page.getByRole('heading', { name: 'Fees: free' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start selling' })).toHaveAttribute('href', '/post-listing?type=sell');

    await page.goto('/about');
    await expect(page.locator('.timeline__year')).toHaveText(['2023', '2025']);
    await expect(page.getByRole('link', { name: 'GeoNames' }).first()).toHaveAttribute('href', 'https://www.geonames.org/');
    // postcodes.io's data (ONS Postcode Directory) asks for these words wherever it is used: the footer of every page.
    await expect(page.getByTestId('postcode-credit')).toContainText('Contains Royal Mail data © Royal Mail copyright and database right');
    await expect(page.getByTestId('postcode-credit')).toContainText(
      'Source: Office for National Statistics licensed under the Open Government Licence v3.0',
    );
  });

  test('the privacy policy names the retention periods and where to export and delete your data', async ({ page }) => {
    await page.goto('/privacy');
    const main = page.getByRole('main');
    await expect(main).toContainText('If you do not sign in for 2 years, we delete the account');
    await expect(main).toContainText('Backups are deleted within 30 days');
    await expect(main).toContainText('A listing our team hid is deleted with its photos 180 days after it was hidden');
    await expect(main).toContainText('not for children under 13');
    await expect(main).toContainText('governed by the law of England and Wales');
    await expect(main.getByRole('link', { name: 'profile, under Account' })).toHaveAttribute('href', '/profile#account');
  });
});
