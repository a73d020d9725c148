import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from '@playwright/test';
import { signInThroughApi, signUpThroughApi, uniqueEmail } from './account-steps.js';
import { expect, test } from './fixtures.js';
import { boxOf, isUncovered, overlaps } from './layout.js';
import { placeNamed, postListing, signUpVerified, uniqueWord } from './sellers.js';

const PASSWORD = 'Meadow-Gate-2026';

/** Records, as soon as the document is parsed (before any module script has run), which account controls are displayed. */
async function recordHeaderAtParse(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => {
      const shown = (selector: string) => {
        const element = document.querySelector(`[data-account-slot] ${selector}`);
        return element !== null && getComputedStyle(element).display !== 'none';
      };
      (window as unknown as { headerAtParse: unknown }).headerAtParse = {
        loading: shown('[data-testid="account-loading"]'),
        signIn: shown('a[href="/signin"]'),
      };
    });
  });
}

const headerAtParse = (page: Page) => page.evaluate(() => (window as unknown as { headerAtParse: unknown }).headerAtParse);

/** Holds every GET /api/auth/me until `release` is called, so the test sees the header while the session resolves. */
async function holdSessionCheck(page: Page): Promise<() => void> {
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/auth/me', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

test.describe('the header while the session resolves', () => {
  test('signed in: a Loading button from the first paint, never Sign In, then the account menu and the messages bell', async ({ page }) => {
    const email = uniqueEmail('header');
    await signUpThroughApi(page.request, email, PASSWORD, 'Harry Haymaker');
    // The page's request context shares the browser's cookies: this signs the browser in.
    await signInThroughApi(page.request, email, PASSWORD);

    await recordHeaderAtParse(page);
    const release = await holdSessionCheck(page);
    await page.goto('/');
    expect(await headerAtParse(page)).toEqual({ loading: true, signIn: false });
    const loading = page.getByTestId('account-loading');
    await expect(loading).toBeVisible();
    await expect(loading).toBeDisabled();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeHidden();
    await expect(page.getByRole('link', { name: 'Sign Up', exact: true })).toBeHidden();

    release();
    await expect(page.getByTestId('account-menu')).toContainText('Harry Haymaker');
    await expect(loading).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toHaveCount(0);
    // The messages bell is the signed-in user's (SPEC §2 "Header"); it opens the Messages dropdown.
    await page.getByTestId('messages-bell').click();
    await expect(page.getByRole('region', { name: 'Messages' })).toContainText('No new messages');
    await expect(page.getByRole('region', { name: 'Messages' }).getByRole('link', { name: 'View all messages' })).toHaveAttribute(
      'href',
      '/messages',
    );
    await expect(page.getByTestId('notifications-bell')).toHaveAccessibleName('Notifications');
  });

  test('a stale signed-in hint shows Loading, then Sign In again', async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: 'fm_signed_in', value: '1', url: baseURL ?? '' }]);
    await recordHeaderAtParse(page);
    const release = await holdSessionCheck(page);
    await page.goto('/');
    expect(await headerAtParse(page)).toEqual({ loading: true, signIn: false });
    release();
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByTestId('account-loading')).toBeHidden();
    await expect(page.getByTestId('account-menu')).toHaveCount(0);
  });

  test('a visitor sees Sign In from the first paint, no Loading and no messages bell', async ({ page }) => {
    await recordHeaderAtParse(page);
    await page.goto('/');
    expect(await headerAtParse(page)).toEqual({ loading: false, signIn: true });
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await expect(page.getByTestId('account-loading')).toBeHidden();
    await expect(page.getByRole('banner').getByRole('button', { name: /messages|notifications/i })).toHaveCount(0);
  });
});

/** Screenshots for people to look at (not compared): e2e/screenshots/, ignored by git. */
const SCREENSHOTS = resolve(import.meta.dirname, '..', 'screenshots');
/** 40 characters: a long but real-looking display name. */
const LONG_NAME = 'Henrietta Fotheringham-Cholmondeley-Ward';

/**
 * Signed in with a long name, the header fits the screen: no page-wide horizontal scroll, the
 * Fieldmarket wordmark shown whole and uncovered, and the account menu opening below its toggle (on
 * a phone, below the whole header), on screen and clear of the logo.
 */
async function expectSignedInHeaderFits(page: Page, label: 'desktop' | 'phone') {
  test.setTimeout(60_000);
  expect(LONG_NAME).toHaveLength(40);
  const email = uniqueEmail('long-name');
  await signUpThroughApi(page.request, email, PASSWORD, LONG_NAME);
  await signInThroughApi(page.request, email, PASSWORD);
  await page.goto('/');
  const menu = page.getByTestId('account-menu');
  await expect(menu).toBeVisible();
  await expect(page.getByTestId('messages-bell')).toBeVisible();

  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  const wordmark = page.getByTestId('site-logo').getByText('Fieldmarket', { exact: true });
  await expect(wordmark).toBeVisible();
  // Whole, not squeezed to nothing or clipped, and nothing in the bar on top of it.
  expect(await wordmark.evaluate((element) => element.getBoundingClientRect().width >= element.scrollWidth - 0.5)).toBe(true);
  expect((await boxOf(wordmark)).width).toBeGreaterThan(60);
  expect(await isUncovered(wordmark)).toBe(true);

  await menu.click();
  const panel = page.locator('#account-menu-panel');
  await expect(panel).toBeVisible();
  const below = label === 'phone' ? await boxOf(page.getByRole('banner')) : await boxOf(menu);
  const panelBox = await boxOf(panel);
  expect(panelBox.y).toBeGreaterThanOrEqual(below.y + below.height - 1);
  expect(overlaps(panelBox, await boxOf(page.getByTestId('site-logo')))).toBe(false);
  expect(await isUncovered(wordmark)).toBe(true);
  expect(panelBox.x).toBeGreaterThanOrEqual(0);
  expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(await page.evaluate(() => document.documentElement.clientWidth));
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: resolve(SCREENSHOTS, `header-long-name-${label}.png`) });
}

test.describe('the signed-in header with a long name', () => {
  test('fits a desktop screen, the account menu below it', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectSignedInHeaderFits(page, 'desktop');
  });

  test('fits a phone, the wordmark shown and the account menu below the header @phone', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await expectSignedInHeaderFits(page, 'phone');
  });
});

test.describe("a visitor's header on phones", () => {
  test('fits every common phone width, the menu button whole on screen', async ({ page }) => {
    // 412px is a Pixel 7 and many Android phones: the button once went 2px past the edge there.
    for (const width of [360, 390, 412, 430]) {
      await page.setViewportSize({ width, height: 844 });
      await page.goto('/');
      const toggle = page.getByRole('button', { name: 'Menu' });
      await expect(toggle).toBeVisible();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        `${width}px`,
      ).toBeLessThanOrEqual(0);
      const box = await boxOf(toggle);
      expect(box.x + box.width, `${width}px`).toBeLessThanOrEqual(width);
      await expect(page.getByTestId('site-logo').getByText('Fieldmarket', { exact: true })).toBeVisible();
    }
  });
});

test.describe('the search box in the header', () => {
  test('searches from the home page without JavaScript, and with it suggests a category to pick', async ({
    page,
    browser,
    baseURL,
    extraHTTPHeaders,
  }) => {
    await signUpVerified(page.request, 'Sian Searcher');
    const word = uniqueWord();
    const place = await placeNamed(page.request, 'Hereford');
    await postListing(page.request, {
      category: 'livestock',
      title: `Hereford ${word} heifers`,
      price: 1400,
      location: place.label,
      place_id: place.id,
    });

    // Without JavaScript: a plain form to /browse, the results rendered by the server.
    const plain = await browser.newContext({ javaScriptEnabled: false, baseURL, extraHTTPHeaders });
    const visitor = await plain.newPage();
    await visitor.goto('/');
    await visitor.getByLabel('Find listings').fill(word);
    await visitor.getByRole('button', { name: 'Find', exact: true }).click();
    await expect(visitor).toHaveURL(new RegExp(`/browse\\?q=${word}$`));
    await expect(visitor.locator('[data-browse-results] .listing-card')).toHaveCount(1);
    await expect(visitor.locator('[data-browse-results] .listing-card')).toContainText(`Hereford ${word} heifers`);
    // The header's box keeps the words searched for on the results.
    await expect(visitor.getByLabel('Find listings')).toHaveValue(word);
    await plain.close();

    // With it: categories matching the words at once, places after a pause; a category picked from the list.
    for (const [name, size] of [
      ['390', { width: 390, height: 844 }],
      ['desktop', { width: 1366, height: 900 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto('/');
      const box = page.getByLabel('Find listings');
      await box.fill('here');
      await expect(page.getByRole('option', { name: /^Hereford/ }).first()).toBeVisible();
      await box.fill('live');
      const livestock = page.getByRole('option', { name: 'Livestock Category' });
      await expect(livestock).toBeVisible();
      await expect(page.getByRole('combobox', { name: 'Find listings' })).toHaveAttribute('aria-expanded', 'true');
      mkdirSync(SCREENSHOTS, { recursive: true });
      await page.screenshot({ path: resolve(SCREENSHOTS, `header-search-${name}.png`) });
      await livestock.click();
      await expect(page).toHaveURL(/\/browse\?category=livestock$/);
      await expect(page.locator('[data-browse-tab="livestock"]')).toHaveAttribute('aria-current', 'page');
    }
  });
});
