import type { Page } from '@playwright/test';
import { CLIENT_HEADERS, signUpThroughApi, uniqueEmail } from './account-steps.js';
import { expect, test } from './fixtures.js';

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
    const signIn = await page.request.post('/api/auth/signin', { data: { email, password: PASSWORD }, headers: CLIENT_HEADERS });
    expect(signIn.status()).toBe(200);

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
