import { expect, test } from './fixtures.js';
import { watchForProblems } from './page-problems.js';

test.describe('pages under the Content-Security-Policy', () => {
  for (const path of ['/', '/no-such-page']) {
    test(`${path} runs its scripts with no console error and no policy violation`, async ({ page }) => {
      const problems = await watchForProblems(page, { notFound: path === '/no-such-page' });
      await page.goto(path);
      // The layout's scripts ran: the Browse menu opens.
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('button', { name: 'Browse' }).click();
      await expect(nav.getByRole('link', { name: 'All Categories' })).toBeVisible();
      expect(await problems()).toEqual([]);
    });
  }

  test('the contact form island hydrates and works, with no console error and no policy violation', async ({ page }) => {
    const problems = await watchForProblems(page);
    await page.goto('/contact');
    // Astro drops the ssr attribute once the island has hydrated.
    await expect(page.locator('astro-island')).toHaveCount(1);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByText('Name is required', { exact: true })).toBeVisible();
    await form.getByLabel('Name').fill('Jane Farmer');
    await expect(form.getByText('Name is required', { exact: true })).toBeHidden();
    expect(await problems()).toEqual([]);
  });
});

test.describe('account pages under the Content-Security-Policy', () => {
  for (const path of ['/signin', '/signup', '/forgot-password', '/reset-password', '/verify-email']) {
    test(`${path} hydrates with no console error and no policy violation`, async ({ page }) => {
      const problems = await watchForProblems(page);
      await page.goto(path);
      await expect(page.locator('astro-island')).toHaveCount(1);
      await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
      expect(await problems()).toEqual([]);
    });
  }

  test('signed in: the header menu, the profile, the two-factor QR code, the public profile and /services', async ({ page }) => {
    const problems = await watchForProblems(page);
    const email = `csp-${Date.now()}@example.co.uk`;
    const headers = { 'x-requested-with': 'fieldmarket' };
    await page.request.post('/api/auth/signup', { data: { name: 'Casey Policy', email, password: 'Meadow-Gate-2026' }, headers });
    const signedIn = await page.request.post('/api/auth/signin', { data: { email, password: 'Meadow-Gate-2026' }, headers });
    expect(signedIn.status()).toBe(200);

    await page.goto('/profile#security');
    await expect(page.getByTestId('account-menu')).toContainText('Casey Policy');
    await page.getByRole('button', { name: 'Enable 2FA' }).click();
    const qr = page.getByRole('dialog', { name: 'Setup Two-Factor Authentication' }).getByRole('img');
    await expect(qr).toBeVisible();
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);

    const { data } = (await (await page.request.get('/api/auth/me')).json()) as { data: { user: { id: string } } };
    await page.goto(`/profile/${data.user.id}`);
    await expect(page.getByRole('heading', { name: 'Casey Policy' })).toBeVisible();
    await page.goto('/services');
    // Other suites may have posted services: the list or its empty state, either drawn under the policy.
    await expect(page.getByTestId('services-list').or(page.getByTestId('services-empty'))).toBeVisible();
    expect(await problems()).toEqual([]);
  });
});
