import { signInWithForm, signUpThroughApi, uniqueEmail } from './account-steps.js';
import { expect, test } from './fixtures.js';

const PASSWORD = 'Meadow-Gate-2026';

test.describe('services', () => {
  test('a visitor opening /services is sent to sign in, with history replaced, and comes back to the empty list', async ({ page }) => {
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
    });
    const email = uniqueEmail('services');
    await signUpThroughApi(page.request, email, PASSWORD);

    await page.goto('/');
    await page.goto('/services');
    await expect(page).toHaveURL(/\/signin\?redirect=%2Fservices$/);
    // /services was replaced by /signin: Back goes to the page before, not to /services (which would bounce again).
    await page.goBack();
    await expect(page).toHaveURL(/\/$/);
    await page.goForward();
    await expect(page).toHaveURL(/\/signin\?redirect=%2Fservices$/);

    const listings = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/listings');
    await signInWithForm(page, email, PASSWORD);
    await expect(page).toHaveURL(/\/services$/);
    await expect(page.getByRole('heading', { name: 'Services', level: 1 })).toBeVisible();
    // The page lists the Services category from the listings API.
    const answer = await listings;
    expect(answer.status()).toBe(200);
    expect(new URL(answer.url()).searchParams.get('category')).toBe('services');
    // Other suites may have posted services into this product: the page shows exactly what the API gave.
    const listed = ((await answer.json()) as { data: { listings: Array<{ title: string }> } }).data.listings;
    if (listed.length === 0) await expect(page.getByTestId('services-empty')).toContainText('No services listed yet.');
    else await expect(page.getByTestId('services-list').locator('.listing-card__title')).toHaveText(listed.map((l) => l.title));
    expect(failures).toEqual([]);
  });
});
