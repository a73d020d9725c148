import { OAuth2Server } from 'oauth2-mock-server';
import { signOutFromHeader } from './account-steps.js';
import { expect, test } from './fixtures.js';
import { productUnderTest } from './product.js';

/** Who is signed in at "Google": what its userinfo endpoint answers for any token it issued. */
interface GooglePerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

// On the second product, the one with Google configured (playwright.config.ts), in order.
test.describe('Google sign-in against a local OAuth server @own-product', () => {
  test.describe.configure({ mode: 'serial' });

  const google = new OAuth2Server();
  let person: GooglePerson | undefined;
  let origin = '';

  test.beforeAll(async () => {
    const product = productUnderTest();
    origin = product.baseURL;
    const googleURL = new URL(product.googleURL as string);
    await google.issuer.keys.generate('RS256');
    // The product sends the browser to this address and asks it for tokens and the person.
    await google.start(Number(googleURL.port), googleURL.hostname);
    // The mock's /authorize sends the browser straight back with a code (consent given); its
    // userinfo then describes the person the test chose, as Google's does for its access token.
    google.service.on('beforeUserinfo', (response: { statusCode: number; body: unknown }) => {
      if (!person) Object.assign(response, { statusCode: 401, body: { error: 'invalid_token' } });
      else response.body = { ...person };
    });
  });

  test.afterAll(async () => {
    await google.stop();
  });

  test('Continue with Google signs a new user in; the profile shows the Google security notice; sign out', async ({ page }) => {
    const failures: string[] = [];
    page.on('response', (response) => {
      if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
    });
    person = {
      sub: `1${Date.now()}`.padEnd(21, '0'),
      email: `gwen.${Date.now()}@gmail.example`,
      email_verified: true,
      name: 'Gwen Grower',
    };

    await page.goto(`${origin}/signin`);
    const button = page.getByRole('link', { name: 'Continue with Google' });
    await expect(button).toBeVisible();
    // The browser goes to "Google" (the mock's authorise step) and is sent back to the product's callback.
    const authorise = page.waitForRequest((request) => request.url().startsWith(`http://127.0.0.1:${google.address().port}/authorize`));
    const callback = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/google/callback');
    await button.click();
    const authoriseUrl = new URL((await authorise).url());
    expect(authoriseUrl.searchParams.get('redirect_uri')).toBe(`${origin}/api/auth/google/callback`);
    expect((await callback).status()).toBe(302);

    // Back on the site, signed in, and sent on to where signing in leads (browse): the header's menu
    // carries Google's name for the person.
    await page.waitForURL(`${origin}/browse`);
    await expect(page.getByTestId('account-menu')).toContainText('Gwen Grower');

    // A Google account's security is Google's: the notice replaces the two-factor card.
    await page.goto(`${origin}/profile#security`);
    await expect(page.getByRole('heading', { name: 'Google Account Security' })).toBeVisible();
    await expect(page.getByText('2FA is not available for Google OAuth users')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enable 2FA' })).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Change Password' })).toHaveCount(0);

    await signOutFromHeader(page);
    expect((await (await page.request.get(`${origin}/api/auth/me`)).json()) as unknown).toMatchObject({ data: { user: null } });
    expect(failures).toEqual([]);
  });
});

test('without Google configured, the sign-in page says so and nothing fails', async ({ page }) => {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.status() >= 500) failures.push(`${response.status()} ${response.url()}`);
  });
  // The page is rendered knowing the server's providers (no request from the browser for them).
  await page.goto('/signin');
  expect(await (await page.request.get('/api/auth/providers')).json()).toEqual({ success: true, data: { google: false } });
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Continue with Google' })).toHaveAccessibleDescription(
    'Google sign-in is not configured on this server.',
  );
  await expect(page.getByRole('link', { name: 'Continue with Google' })).toHaveCount(0);

  // Going to the start address anyway (an old bookmark) lands on the sign-in page with the same words, not an error.
  await page.goto('/api/auth/google');
  await expect(page).toHaveURL(/\/signin\?error=google-not-configured$/);
  await expect(page.getByTestId('signin-error')).toHaveText('Google sign-in is not configured on this server.');
  expect(failures).toEqual([]);
});
