import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { generate } from 'otplib';
import {
  CLIENT_HEADERS,
  mailedLink,
  signInThroughApi,
  signInWithForm,
  signOutFromHeader,
  signUpThroughApi,
  uniqueEmail,
} from './account-steps.js';
import { expect, test } from './fixtures.js';

/** Screenshots for people to look at (not compared): e2e/screenshots/, ignored by git. */
const SCREENSHOTS = resolve(import.meta.dirname, '..', 'screenshots');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A TOTP code no earlier than `notBefore` (ms): the API accepts each time step once, so a later code is needed after one was used. */
function totp(secret: string, notBefore = Date.now()): Promise<string> {
  return generate({ secret, epoch: Math.floor(Math.max(Date.now(), notBefore) / 1000) });
}

test.describe('accounts', () => {
  test('sign up, confirm, profile, two-factor, recovery code, reset, delete', async ({ page }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('journey');
    const password = 'Meadow-Gate-2026';
    const newPassword = 'Hedgerow-Lane-2027';

    // Sign up: the form keeps what was typed when a rule fails, then says to check the mail.
    await page.goto('/signup');
    const signup = page.getByRole('form', { name: 'Sign up' });
    await signup.getByLabel('Name', { exact: true }).fill('Jane Farmer');
    await signup.getByLabel('Email').fill(email);
    await signup.getByLabel('Password', { exact: true }).fill(password);
    await signup.getByLabel('Confirm password').fill('Meadow-Gate-2025');
    await signup.getByRole('button', { name: 'Create Account' }).click();
    await expect(signup.getByText('Passwords do not match', { exact: true })).toBeVisible();
    await expect(signup.getByLabel('Email')).toHaveValue(email);
    await signup.getByLabel('Confirm password').fill(password);
    await signup.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByTestId('signup-done')).toContainText(
      'Account created successfully! Please check your email to verify your account.',
    );

    // The mailed link confirms the address.
    await page.goto(await mailedLink(email, '/verify-email'));
    await expect(page.getByTestId('verify-confirmed')).toContainText('Your email address is confirmed.');

    // Sign in: with no redirect parameter, /browse, signed in.
    await page.goto('/signin');
    await signInWithForm(page, email, password);
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByTestId('account-menu')).toContainText('Jane Farmer');
    // A signed-in user who opens /signin is sent on at once.
    await page.goto('/signin');
    await expect(page).toHaveURL(/\/browse$/);

    // Profile details persist.
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible();
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Full name').fill('');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByText('Full name is required', { exact: true })).toBeVisible();
    await page.getByLabel('Full name').fill('Jane Meadows');
    await page.getByLabel('Phone (optional)').fill('01823 555 123');
    await page.getByLabel('Location (optional)').fill('Taunton, Somerset');
    await page.getByLabel('Bio (optional)').fill('Dairy farmer on the Levels.');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page.getByTestId('profile-banner')).toContainText('Profile updated successfully!');
    await page.reload();
    const facts = page.getByTestId('profile-facts');
    for (const text of ['Jane Meadows', '01823 555 123', 'Taunton, Somerset', 'Dairy farmer on the Levels.']) {
      await expect(facts).toContainText(text);
    }

    // Two-factor on, with the secret shown for typing by hand.
    await page.getByRole('tab', { name: 'Security' }).click();
    await page.getByRole('button', { name: 'Enable 2FA' }).click();
    const setup = page.getByRole('dialog', { name: 'Setup Two-Factor Authentication' });
    await expect(setup.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
    const secret = (await setup.getByTestId('two-factor-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await setup.getByLabel('Verification Code').fill(await totp(secret));
    const enabledAt = Date.now();
    await setup.getByRole('button', { name: 'Verify & Enable' }).click();
    const codesDialog = page.getByRole('dialog', { name: 'Save your recovery codes' });
    await expect(codesDialog.getByRole('listitem')).toHaveCount(10);
    const recoveryCodes = (await codesDialog.getByRole('listitem').allTextContents()).map((code) => code.trim());
    await codesDialog.getByRole('button', { name: 'I have saved them' }).click();
    await expect(page.getByTestId('profile-banner')).toContainText('Two-factor authentication enabled successfully!');
    await expect(page.getByTestId('two-factor-state')).toHaveText('Enabled');

    // Sign out; signing in now needs the code. A wrong one is refused in the spec's words and cleared.
    await signOutFromHeader(page);
    await page.goto('/signin');
    await signInWithForm(page, email, password);
    const overlay = page.getByRole('dialog', { name: 'Verification Required' });
    await expect(overlay).toContainText('Please enter the 6-digit code from your authenticator app to complete login.');
    const rightCode = await totp(secret, enabledAt + 30_000);
    const wrongCode = String((Number(rightCode) + 500_000) % 1_000_000).padStart(6, '0');
    await expect(overlay.getByRole('button', { name: 'Verify' })).toBeDisabled();
    await overlay.getByLabel('Verification code').fill(wrongCode);
    await overlay.getByRole('button', { name: 'Verify' }).click();
    await expect(overlay.getByRole('alert')).toHaveText('Invalid verification code');
    await expect(overlay.getByLabel('Verification code')).toHaveValue('');
    await overlay.getByLabel('Verification code').fill(rightCode);
    await overlay.getByRole('button', { name: 'Verify' }).click();
    await expect(page).toHaveURL(/\/browse$/);
    await expect(page.getByTestId('account-menu')).toBeVisible();

    // A recovery code instead of the app.
    await signOutFromHeader(page);
    await page.goto('/signin');
    await signInWithForm(page, email, password);
    await overlay.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await overlay.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
    await overlay.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('account-menu')).toBeVisible();

    // Cancelling the challenge leaves the browser signed out, with the spec's message.
    await signOutFromHeader(page);
    await page.goto('/signin');
    await signInWithForm(page, email, password);
    await overlay.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByTestId('signin-error')).toHaveText('2FA verification required for login');
    await expect(overlay).toBeHidden();

    // Password reset through the mailed link.
    await page.goto('/forgot-password');
    const forgot = page.getByRole('form', { name: 'Reset your password' });
    await forgot.getByLabel('Email').fill(email);
    await forgot.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect(page.getByTestId('forgot-done')).toBeVisible();
    await page.goto(await mailedLink(email, '/reset-password'));
    await page.getByLabel('New password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm new password').fill(newPassword);
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByTestId('reset-done')).toBeVisible();
    await page.getByTestId('reset-done').getByRole('link', { name: 'Sign In' }).click();

    // The old password no longer works; the new one does, and two-factor still applies.
    await signInWithForm(page, email, password);
    await expect(page.getByTestId('signin-error')).toHaveText('Incorrect email or password.');
    await signInWithForm(page, email, newPassword);
    await overlay.getByRole('button', { name: 'Use a recovery code instead' }).click();
    await overlay.getByLabel('Recovery code').fill(recoveryCodes[1] ?? '');
    await overlay.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('account-menu')).toBeVisible();

    // Delete the account with the password; signing in then fails.
    await page.goto('/profile#account');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const deletion = page.getByRole('dialog', { name: 'Delete Account' });
    await expect(deletion).toContainText('Are you sure you want to delete your account? This action cannot be undone.');
    await deletion.getByRole('button', { name: 'Delete my account' }).click();
    await expect(deletion.getByText('Password is required', { exact: true })).toBeVisible();
    await deletion.getByLabel('Your password', { exact: true }).fill(newPassword);
    await deletion.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/\?account=deleted$/);
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await page.goto('/signin');
    await signInWithForm(page, email, newPassword);
    await expect(page.getByTestId('signin-error')).toHaveText('Incorrect email or password.');
  });

  test('a refused common password is said once on sign-up, beside the field', async ({ page }) => {
    await page.goto('/signup');
    const signup = page.getByRole('form', { name: 'Sign up' });
    await signup.getByLabel('Name', { exact: true }).fill('Jane Farmer');
    await signup.getByLabel('Email').fill(uniqueEmail('common'));
    await signup.getByLabel('Password', { exact: true }).fill('password123');
    await signup.getByLabel('Confirm password').fill('password123');
    await signup.getByRole('button', { name: 'Create Account' }).click();
    const common = signup.getByText('This password is too common and appears in lists of leaked passwords. Please choose another.');
    await expect(common).toHaveCount(1);
    await expect(signup.getByLabel('Password', { exact: true })).toHaveAttribute('aria-invalid', 'true');
    await expect(signup.getByTestId('signup-error')).toBeEmpty();
  });

  test('a used reset link says so as the page opens; an unused one opens the form and still works', async ({ page }) => {
    const email = uniqueEmail('used-link');
    await signUpThroughApi(page.request, email, 'Meadow-Gate-2026');
    expect((await page.request.post('/api/auth/password-reset', { data: { email }, headers: CLIENT_HEADERS })).status()).toBe(200);
    const link = await mailedLink(email, '/reset-password');
    await page.goto(link);
    await expect(page.getByRole('button', { name: 'Reset Password' })).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('Hedgerow-Lane-2027');
    await page.getByLabel('Confirm new password').fill('Hedgerow-Lane-2027');
    await page.getByRole('button', { name: 'Reset Password' }).click();
    await expect(page.getByTestId('reset-done')).toBeVisible();

    await page.goto(link);
    await expect(page.getByTestId('reset-invalid')).toContainText('Invalid reset link. Please request a new password reset.');
    await expect(page.getByRole('button', { name: 'Reset Password' })).toHaveCount(0);
  });

  test('Delete Account: a wrong password is said once; the home page then says the account was deleted', async ({ page }) => {
    const email = uniqueEmail('deleted');
    const password = 'Meadow-Gate-2026';
    await signUpThroughApi(page.request, email, password);
    await signInThroughApi(page.request, email, password);
    await page.goto('/profile#account');
    await page.getByRole('button', { name: 'Delete Account' }).click();
    const deletion = page.getByRole('dialog', { name: 'Delete Account' });
    await deletion.getByLabel('Your password', { exact: true }).fill('Not-my-password-1');
    await deletion.getByRole('button', { name: 'Delete my account' }).click();
    await expect(deletion.getByText('Your current password is not correct.')).toHaveCount(1);
    await expect(deletion.getByLabel('Your password', { exact: true })).toHaveAttribute('aria-invalid', 'true');

    await deletion.getByLabel('Your password', { exact: true }).fill(password);
    await deletion.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(/\/\?account=deleted$/);
    await expect(page.getByRole('status').filter({ hasText: 'Account deleted successfully' })).toBeVisible();
    // Only after a deletion.
    await page.goto('/');
    await expect(page.getByText('Account deleted successfully')).toHaveCount(0);
  });

  test('a privacy switch survives a reload; Export Data downloads the profile; Sign Out from the header', async ({ page }) => {
    const email = uniqueEmail('privacy');
    const password = 'Meadow-Gate-2026';
    await signUpThroughApi(page.request, email, password, 'Polly Pasture');
    await signInThroughApi(page.request, email, password);

    // The switch applies at once and is what the server keeps: a reload shows it as left.
    await page.goto('/profile#privacy');
    const contact = page.getByRole('switch', { name: 'Show phone number' });
    const was = (await contact.getAttribute('aria-checked')) === 'true';
    const saved = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/profile/privacy' && r.request().method() === 'PUT');
    await contact.click();
    expect((await saved).status()).toBe(200);
    await expect(page.getByTestId('profile-banner')).toContainText('Privacy settings updated successfully!');
    await expect(contact).toHaveAttribute('aria-checked', String(!was));
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Show phone number' })).toHaveAttribute('aria-checked', String(!was));

    // Export Data: a JSON file named with the product and the day, holding the profile as it now is.
    await page.getByRole('tab', { name: 'Account' }).click();
    const day = () => new Date().toISOString().slice(0, 10);
    const dayBefore = day();
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Data' }).click();
    const download = await downloading;
    expect([`fieldmarket-data-${dayBefore}.json`, `fieldmarket-data-${day()}.json`]).toContain(download.suggestedFilename());
    const text = await readFile(await download.path(), 'utf8');
    const exported = JSON.parse(text) as { profile: { email: string; full_name: string; privacy_settings: Record<string, boolean> } };
    expect(exported.profile).toMatchObject({ email, full_name: 'Polly Pasture', privacy_settings: { contact_visible: !was } });
    expect(text).not.toMatch(/argon2|password_hash/i);
    await expect(page.getByTestId('profile-banner')).toContainText('Data exported successfully!');

    // Sign Out from the header's menu: back to the home page with the visitor's header, and no session on the server.
    await signOutFromHeader(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('link', { name: 'Sign Up', exact: true })).toBeVisible();
    await expect(page.getByTestId('account-loading')).toBeHidden();
    expect(await (await page.request.get('/api/auth/me')).json()).toMatchObject({ data: { user: null } });
  });

  test('a visitor opening /profile signs in and comes back to it', async ({ page }) => {
    const email = uniqueEmail('visitor');
    await signUpThroughApi(page.request, email, 'Meadow-Gate-2026');
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/signin\?redirect=%2Fprofile$/);
    // History was replaced: Back does not return to /profile (which would bounce again).
    await signInWithForm(page, email, 'Meadow-Gate-2026');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Profile', exact: true })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible();
  });

  test('pages that need an account send a visitor to sign in from the server, and the tab they asked for survives', async ({
    page,
    request,
  }) => {
    // Before any script: the server answers the visitor's request with the redirect itself.
    for (const path of ['/profile', '/messages?conversation=7', '/services', '/post-listing', '/staff']) {
      const answer = await request.get(path, { maxRedirects: 0 });
      expect(answer.status(), path).toBe(302);
      expect(answer.headers()['location'], path).toBe(`/signin?redirect=${encodeURIComponent(path)}`);
    }
    const email = uniqueEmail('tab');
    await signUpThroughApi(page.request, email, 'Meadow-Gate-2026');
    await page.goto('/profile#saved-searches');
    await expect(page).toHaveURL(/\/signin\?redirect=%2Fprofile#saved-searches$/);
    await signInWithForm(page, email, 'Meadow-Gate-2026');
    await expect(page).toHaveURL(/\/profile#saved-searches$/);
    await expect(page.getByRole('tab', { name: 'Saved searches' })).toHaveAttribute('aria-selected', 'true');
  });

  test("a member's own profile comes in the page as sent: it shows without the island's request", async ({ page }) => {
    const email = uniqueEmail('own');
    await signUpThroughApi(page.request, email, 'Meadow-Gate-2026', 'Rowan Hedges');
    await signInThroughApi(page.request, email, 'Meadow-Gate-2026');
    const sent = await (await page.request.get('/profile')).text();
    expect(sent).toContain('Rowan Hedges');
    // Until the island hydrates its buttons do nothing, so they come disabled rather than lose a tap.
    expect(sent).toMatch(/<button[^>]*disabled=""[^>]*>Edit<\/button>/);
    expect(sent).toMatch(/<button[^>]*role="tab"[^>]*disabled=""[^>]*>Security<\/button>/);
    // The profile API refused in the browser: what the member sees came with the page.
    let asked = false;
    await page.route('**/api/profile', (route) => {
      asked = true;
      return route.abort();
    });
    await page.goto('/profile');
    await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible();
    await expect(page.getByTestId('profile')).toContainText(email);
    await page.getByRole('button', { name: 'Edit' }).click();
    await expect(page.getByLabel('Full name')).toHaveValue('Rowan Hedges');
    expect(asked).toBe(false);
  });

  test('an off-site redirect is ignored after sign-in', async ({ page }) => {
    const email = uniqueEmail('redirect');
    await signUpThroughApi(page.request, email, 'Meadow-Gate-2026');
    await page.goto('/signin?redirect=https://evil.example/steal');
    await signInWithForm(page, email, 'Meadow-Gate-2026');
    await expect(page.getByTestId('account-menu')).toBeVisible();
    expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL ?? page.url()).host);
    expect(new URL(page.url()).pathname).toBe('/browse');
  });

  test('the public profile is rendered on the server; an unknown user is a 404', async ({ page, request }) => {
    const email = uniqueEmail('public');
    await signUpThroughApi(page.request, email, 'Meadow-Gate-2026', 'Sam Shepherd');
    await signInThroughApi(page.request, email, 'Meadow-Gate-2026');
    const me = (await (await page.request.get('/api/auth/me')).json()) as { data: { user: { id: string } } };

    const publicPage = await request.get(`/profile/${me.data.user.id}`);
    expect(publicPage.status()).toBe(200);
    expect(await publicPage.text()).toContain('Sam Shepherd');

    const unknown = await request.get('/profile/00000000-0000-4000-8000-000000000000');
    expect(unknown.status()).toBe(404);
    expect(await unknown.text()).toContain('Page not found');
    expect((await request.get('/profile/not-an-id')).status()).toBe(404);
  });

  test('visitors load no island and no account script on content pages', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((url) => /react|account-menu|socket/.test(url))).toEqual([]);
  });

  test('screenshots of the account pages at phone and desktop width', async ({ page }) => {
    test.setTimeout(90_000);
    mkdirSync(SCREENSHOTS, { recursive: true });
    // The cookie banner is answered, so the pages themselves show.
    await page.addInitScript(() => window.localStorage.setItem('cookieConsent', 'accepted'));
    const shot = (name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    const email = uniqueEmail('shots');
    const password = 'Meadow-Gate-2026';
    await signUpThroughApi(page.request, email, password, 'Harriet Ploughman');

    for (const [label, size] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto('/signup');
      await page.getByRole('form', { name: 'Sign up' }).getByRole('button', { name: 'Create Account' }).click();
      await expect(page.getByText('Name is required', { exact: true })).toBeVisible();
      await shot(`signup-${label}`);
      await page.goto('/signin');
      await expect(page.getByRole('form', { name: 'Sign in' })).toBeVisible();
      await shot(`signin-${label}`);
    }

    await page.goto('/signin');
    await signInWithForm(page, email, password);
    await expect(page.getByTestId('account-menu')).toBeVisible();
    for (const [label, size] of [
      ['phone', PHONE],
      ['desktop', DESKTOP],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto('/profile');
      await expect(page.getByRole('heading', { name: 'Account Information' })).toBeVisible();
      // The page as a member uses it: hydrated (Edit enabled) and the seller panel loaded, not the page as first sent.
      await expect(page.getByRole('button', { name: 'Edit' })).toBeEnabled();
      await expect(page.getByRole('heading', { name: 'Seller details' })).toBeVisible();
      await shot(`profile-${label}`);
      await page.getByRole('tab', { name: 'Security' }).click();
      await page.getByRole('button', { name: 'Enable 2FA' }).click();
      const setup = page.getByRole('dialog', { name: 'Setup Two-Factor Authentication' });
      await expect(setup.getByRole('img')).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `two-factor-setup-${label}.png`) });
      await setup.getByRole('button', { name: 'Cancel' }).click();
      await expect(setup).toBeHidden();
      await page.getByTestId('account-menu').click();
      await expect(page.getByRole('link', { name: 'Profile', exact: true })).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `account-menu-${label}.png`) });
      await page.keyboard.press('Escape');
    }
  });
});
