import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { boxOf, isUncovered, overlaps } from './layout.js';

test.describe('the shared layout', () => {
  test('home page renders the header, hero and footer', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(page.getByTestId('site-logo')).toContainText('Fieldmarket');
    for (const link of ['Buy', 'Rent', 'Sell', 'Services', 'Messages', 'Feedback']) {
      await expect(nav.getByRole('link', { name: link, exact: true })).toBeVisible();
    }
    await expect(page.getByRole('link', { name: 'Post Listing', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Post Your Listing Free' })).toHaveAttribute('href', '/post-listing');

    const footer = page.getByTestId('site-footer');
    await expect(footer).toContainText('London, United Kingdom');
    await expect(page.getByTestId('copyright')).toContainText(String(new Date().getFullYear()));
    await expect(footer).toContainText('Beta Version');
  });

  test('Browse opens a dropdown with All Categories and five categories', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('button', { name: 'Browse' }).click();
    await expect(nav.getByRole('link', { name: 'All Categories' })).toHaveAttribute('href', '/browse');
    await expect(nav.getByRole('link', { name: 'Seeds & Plants' })).toHaveAttribute('href', '/browse?category=seeds-plants');
  });

  test("featured listings show the spec's empty texts when there are none", async ({ page }) => {
    // Other suites post listings into the same product: answer this page's listing calls with none.
    const none = (body: object) => ({ status: 200, contentType: 'application/json', body: JSON.stringify({ success: true, data: body }) });
    await page.route('**/api/listings/featured?*', (route) => route.fulfill(none({ kind: 'newest', listings: [] })));
    await page.route('**/api/listings?*', (route) =>
      route.fulfill(none({ listings: [], next_cursor: null, total: 0, total_is_lower_bound: false, searched_for: null })),
    );
    await page.goto('/');
    await expect(page.getByTestId('featured-empty')).toHaveText(
      'No featured listings yet. Be the first to post your land, equipment, or service!',
    );
    await page.getByRole('button', { name: 'Land', exact: true }).click();
    await expect(page.getByTestId('featured-empty')).toHaveText('No Land listings found.');
  });

  test('the About block counts the categories the API lists', async ({ page, request }) => {
    const categories = (await (await request.get('/api/categories')).json()) as { data: unknown[] };
    await page.goto('/');
    await expect(page.getByTestId('category-count')).toHaveText(`${categories.data.length} listing categories`);
    await expect(page.getByRole('link', { name: 'Learn More about Fieldmarket' })).toHaveAttribute('href', '/about');
  });

  test('an unknown path shows the not-found page with status 404', async ({ page }) => {
    const response = await page.goto('/no-such-page/anywhere');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await page.getByRole('link', { name: 'Go back home' }).click();
    await expect(page).toHaveURL('/');
  });

  test('Browse Listings on the not-found page leads to a page that exists', async ({ page }) => {
    await page.goto('/no-such-page');
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.request().isNavigationRequest()),
      page.getByTestId('not-found').getByRole('link', { name: 'Browse Listings' }).click(),
    ]);
    expect(response.status()).toBe(200);
    await expect(page).toHaveURL('/#categories');
    await expect(page.getByRole('heading', { name: 'Explore by category' })).toBeInViewport();
  });

  test('the mobile menu repeats the links @phone', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Menu' }).click();
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(menu.getByRole('link', { name: 'Feedback' })).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Sign Up' })).toBeVisible();
  });
});

test.describe('cookie consent', () => {
  test('Accept All Cookies is remembered across reloads', async ({ page }) => {
    await page.goto('/');
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await banner.getByRole('button', { name: 'Accept All Cookies' }).click();
    await expect(banner).toBeHidden();
    await page.reload();
    // Only once the page has decided (the <head> script marks <html>) does the banner's absence mean anything.
    await expect(page.locator('html')).toHaveAttribute('data-cookie-consent', /./);
    expect(await page.getByTestId('cookie-consent').isVisible()).toBe(false);
    await expect(page.locator('html')).toHaveAttribute('data-cookie-consent', 'accepted');
    expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBe('accepted');
  });

  test('closing the banner declines, and Customize saves a choice', async ({ page }) => {
    await page.goto('/contact');
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await banner.getByRole('button', { name: 'Close' }).click();
    expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBe('declined');

    await page.evaluate(() => localStorage.removeItem('cookieConsent'));
    await page.reload();
    await banner.getByRole('button', { name: 'Customize' }).click();
    await banner.getByLabel('Non-essential cookies').check();
    await banner.getByRole('button', { name: 'Save Preferences' }).click();
    await expect(banner).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('cookieConsent'))).toBe('accepted');
  });
});

/** At the end of the page, with the banner up, the footer's last blocks are not under it. */
async function expectFooterUncovered(page: Page) {
  await page.goto('/');
  const banner = page.getByRole('region', { name: 'Cookie consent' });
  await expect(banner).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(banner).toBeInViewport();
  const copyright = page.getByTestId('copyright');
  expect(overlaps(await boxOf(copyright), await boxOf(banner))).toBe(false);
  expect(await isUncovered(copyright)).toBe(true);
  for (const heading of ['Stay Updated', 'Follow us']) {
    const block = page.getByRole('heading', { name: heading });
    await block.scrollIntoViewIfNeeded();
    expect(await isUncovered(block)).toBe(true);
  }
}

test.describe('the cookie banner leaves room for the footer', () => {
  test('on a desktop screen', async ({ page }) => {
    await expectFooterUncovered(page);
  });

  test('on a phone @phone', async ({ page }) => {
    await expectFooterUncovered(page);
  });
});

test.describe('toasts', () => {
  test('appear where they cover neither the header buttons nor the cookie banner @phone', async ({ page }) => {
    await page.goto('/');
    // Subscribe with no address: the box says so in a toast.
    await page.getByRole('button', { name: 'Subscribe' }).click();
    const toast = page.getByTestId('toast').filter({ hasText: 'Email is required' });
    await expect(toast).toHaveAttribute('data-variant', 'destructive');
    const toastBox = await boxOf(toast);
    expect(overlaps(toastBox, await boxOf(page.getByRole('link', { name: 'Post Listing', exact: true })))).toBe(false);
    expect(overlaps(toastBox, await boxOf(page.getByRole('region', { name: 'Cookie consent' })))).toBe(false);
  });
});
