import { expect, test } from './fixtures.js';
import { signUpVerified } from './sellers.js';

// SPEC §2 "Developer pages": a real-time test page, a simple API test page, a development status page,
// and the real-time demo and diagnostics page (/realtime and /realtime-demo, one screen).
test.describe('developer pages', () => {
  test('each route shows its own screen; /realtime and /realtime-demo are the same one', async ({ page }) => {
    const headings: Record<string, string> = {
      '/test': 'Real-time test',
      '/simple-test': 'Simple API test',
      '/dev': 'Development status',
      '/realtime': 'Real-time diagnostics',
      '/realtime-demo': 'Real-time diagnostics',
    };
    for (const [path, heading] of Object.entries(headings)) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    }
  });

  test('the simple API test calls the API from the browser and shows the status, the time and the body', async ({ page }) => {
    await page.goto('/simple-test');
    const categories = page.getByTestId('api-check').filter({ hasText: 'GET /api/categories' });
    await categories.getByRole('button', { name: 'Call Categories' }).click();
    await expect(categories.getByTestId('api-check-status')).toHaveText(/^HTTP 200 in \d+ ms$/);
    await expect(categories.locator('pre')).toContainText('"slug": "land"');
    // A visitor has no session: the API says so.
    const session = page.getByTestId('api-check').filter({ hasText: 'GET /api/auth/me' });
    await session.getByRole('button', { name: 'Call Your session' }).click();
    await expect(session.getByTestId('api-check-status')).toHaveText(/^HTTP 200 in \d+ ms$/);
    await expect(session.locator('pre')).toContainText('"user": null');
  });

  test("the development status page shows where the site answers, the server's health and the diagnostics switch", async ({ page }) => {
    await page.goto('/dev');
    const origin = new URL(page.url()).origin;
    await expect(page.getByTestId('dev-origin')).toHaveText(origin);
    await expect(page.getByTestId('dev-health')).toHaveText(/^Overall: (ok|degraded)$/);
    await expect(page.getByText(/^database: up,/)).toBeVisible();
    // The product runs here as in production: DIAGNOSTIC_ROUTES is off.
    await expect(page.getByTestId('dev-diagnostics')).toHaveText('switched off (DIAGNOSTIC_ROUTES)');
  });

  test('the real-time test page shows the connection, measures the round trip and logs each live event', async ({ page }) => {
    await signUpVerified(page.request, 'Tess Tester');
    await page.goto('/test');
    await expect(page.getByTestId('connection-type')).toHaveText(/realtime/);
    await expect(page.getByTestId('event-log-empty')).toBeVisible();
    await page.getByRole('button', { name: 'Measure round trip' }).click();
    await expect(page.getByTestId('round-trip')).toHaveText(/^\d+ ms$/);
    // A change to the user's own profile is a live event of theirs.
    const saved = await page.request.put('/api/profile', {
      data: { full_name: 'Tess Tester', location: 'Taunton' },
      headers: { 'x-requested-with': 'fieldmarket' },
    });
    expect(saved.ok()).toBe(true);
    await expect(page.getByTestId('event-log').getByRole('listitem').first()).toContainText('PROFILE_UPDATED');
  });

  test("the diagnostics page says the server's figures are switched off when they are", async ({ page }) => {
    await signUpVerified(page.request, 'Dev Tester');
    await page.goto('/realtime');
    await expect(page.getByTestId('connection-type')).toHaveText(/realtime/);
    await expect(page.getByTestId('server-figures-off')).toBeVisible();
  });
});
