import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { OAuth2Server } from 'oauth2-mock-server';
import { BUILT, freePort, spawnBuilt, waitUntilServing, type RunningProcess } from '../../backend/src/testing/processes.js';
import { signOutFromHeader } from './account-steps.js';
import { expect, test } from './fixtures.js';

/** Who is signed in at "Google": what its userinfo endpoint answers for any token it issued. */
interface GooglePerson {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

test.describe('Google sign-in against a local OAuth server', () => {
  // A product instance of its own (with Google configured), so the tests run in order on it.
  test.describe.configure({ mode: 'serial' });

  const google = new OAuth2Server();
  let person: GooglePerson | undefined;
  let product: RunningProcess | undefined;
  let dataDir = '';
  let origin = '';

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    await google.issuer.keys.generate('RS256');
    await google.start(0, '127.0.0.1');
    // The mock's /authorize sends the browser straight back with a code (consent given); its
    // userinfo then describes the person the test chose, as Google's does for its access token.
    google.service.on('beforeUserinfo', (response: { statusCode: number; body: unknown }) => {
      if (!person) Object.assign(response, { statusCode: 401, body: { error: 'invalid_token' } });
      else response.body = { ...person };
    });
    const googleUrl = `http://127.0.0.1:${google.address().port}`;

    // The product as ./fieldmarket start runs it (built entry, embedded defaults), on a port and DATA_DIR of its own.
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    dataDir = await mkdtemp(join(tmpdir(), 'fieldmarket-e2e-google-'));
    product = spawnBuilt(BUILT.web, {
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      DATA_DIR: dataDir,
      // ./fieldmarket start runs from the repository's root, where the default ./frontend/dist is.
      FRONTEND_DIR: resolve(import.meta.dirname, '..', '..', 'frontend', 'dist'),
      EMBEDDED_PG_PORT: String(await freePort()),
      LOG_LEVEL: 'warn',
      TRUST_PROXY: '1',
      ASTRO_TELEMETRY_DISABLED: '1',
      GOOGLE_CLIENT_ID: 'fieldmarket-e2e.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'e2e-client-secret',
      GOOGLE_AUTHORIZATION_URL: `${googleUrl}/authorize`,
      GOOGLE_TOKEN_URL: `${googleUrl}/token`,
      GOOGLE_USERINFO_URL: `${googleUrl}/userinfo`,
    });
    await waitUntilServing(product, `${origin}/api/health`, { timeoutMs: 150_000 });
  });

  test.afterAll(async () => {
    test.setTimeout(60_000);
    if (product && product.child.exitCode === null) {
      product.child.kill('SIGTERM');
      await product.exited;
    }
    await google.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
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

    // Back on the site, signed in: the header's menu carries Google's name for the person.
    await expect(page.getByTestId('account-menu')).toContainText('Gwen Grower');
    expect(new URL(page.url()).origin).toBe(origin);

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
  const providers = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/providers');
  await page.goto('/signin');
  expect(await (await providers).json()).toEqual({ success: true, data: { google: false } });
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
