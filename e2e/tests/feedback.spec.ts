import { join } from 'node:path';
import { mailedLink, signInThroughApi, signUpThroughApi, uniqueEmail } from './account-steps.js';
import { expect, test } from './fixtures.js';
import { outboxMails } from './outbox.js';

const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

test.describe('feedback page', () => {
  test('shows every validation message in one banner, joined with commas, and counts the message', async ({ page }) => {
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    await page.goto('/feedback');
    await expect(page).toHaveTitle('Feedback | Fieldmarket');
    await expect(page.getByTestId('beta-badge')).toHaveText('Beta');
    const form = page.getByRole('form', { name: 'Feedback form' });
    await form.getByRole('button', { name: 'Submit Feedback' }).click();
    await expect(page.getByTestId('feedback-errors')).toHaveText(
      'Name is required, Email is required, Please select a category, Please provide a rating, Message is required',
    );
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Message').fill('Too short');
    await expect(page.getByTestId('feedback-counter')).toHaveText('9/1000');
    await form.getByLabel('Email').fill('jane@farm');
    await form.getByRole('button', { name: 'Submit Feedback' }).click();
    await expect(page.getByTestId('feedback-errors')).toHaveText(
      'Name is required, Please enter a valid email address, Please select a category, Please provide a rating, Message must be at least 10 characters',
    );
    await page.screenshot({ path: join(SCREENSHOTS, 'feedback-errors-desktop.png'), fullPage: true });
    await expect(page.getByRole('link', { name: 'Contact Form' })).toHaveAttribute('href', '/contact');
    await expect(page.getByRole('link', { name: 'Email Support' })).toHaveAttribute('href', 'mailto:support@fieldmarket.co.uk');
    expect(consoleErrors).toEqual([]);
  });

  test('the connectivity banner follows the browser going offline and coming back', async ({ page, context }) => {
    await page.goto('/feedback');
    const banner = page.getByTestId('connectivity-banner');
    await expect(banner).toBeHidden(); // the server answered and the browser is online
    await context.setOffline(true);
    await expect(banner).toHaveText('You appear to be offline. Please check your internet connection.');
    await context.setOffline(false);
    await expect(banner).toHaveText('All systems operational');
    await expect(banner).toBeHidden();
  });

  test('sends feedback: success toast, staff mail, then the form empties after 3 seconds', async ({ page }) => {
    const message = `The map view would help me find grazing near Exeter ${Date.now()}.`;
    await page.goto('/feedback');
    const form = page.getByRole('form', { name: 'Feedback form' });
    await form.getByLabel('Name').fill('Jane Farmer');
    await form.getByLabel('Email').fill('jane@example.co.uk');
    await form.getByLabel('Category').selectOption({ label: 'Feature Request' });
    await form.getByRole('radio', { name: '4 of 5: Very good' }).check();
    await form.getByLabel('Message').fill(message);
    await form.getByRole('button', { name: 'Submit Feedback' }).click();

    await expect(page.getByTestId('toast').filter({ hasText: 'Feedback Submitted Successfully!' })).toHaveAttribute(
      'data-variant',
      'success',
    );
    await expect(page.getByTestId('feedback-success')).toBeVisible();
    await expect
      .poll(async () => (await outboxMails()).filter((m) => m.text.includes(message)).map((m) => [m.to, m.subject]))
      .toEqual([['support@fieldmarket.co.uk', '[Feedback] Feature Request, rated 4/5']]);

    await expect(page.getByTestId('feedback-success')).toBeHidden({ timeout: 6_000 });
    await expect(form.getByLabel('Message')).toHaveValue('');
    await expect(form.getByLabel('Category')).toHaveValue('');
    await expect(form.getByRole('radio', { name: '4 of 5: Very good' })).not.toBeChecked();
    await expect(page.getByTestId('feedback-counter')).toHaveText('0/1000');
  });

  test('offers Try Again after a connection error, which then sends the same feedback', async ({ page }) => {
    await page.goto('/feedback');
    const form = page.getByRole('form', { name: 'Feedback form' });
    await form.getByLabel('Name').fill('Jane Farmer');
    await form.getByLabel('Email').fill('jane@example.co.uk');
    await form.getByLabel('Category').selectOption({ label: 'Bug Report' });
    await form.getByRole('radio', { name: '2 of 5: Fair' }).check();
    await form.getByLabel('Message').fill('The photos upload slowly on a farm connection.');
    await page.route('**/api/feedback', (route) => route.abort('internetdisconnected'), { times: 1 });
    await form.getByRole('button', { name: 'Submit Feedback' }).click();

    await expect(page.getByTestId('feedback-failure')).toContainText(
      'Unable to connect to the server. Please check your internet connection and try again.',
    );
    await expect(page.getByTestId('toast').filter({ hasText: 'Failed to Submit Feedback' })).toHaveAttribute('data-variant', 'destructive');
    await page.getByRole('button', { name: 'Try Again' }).click();
    await expect(page.getByTestId('feedback-success')).toBeVisible();
  });

  test("fills in a signed-in user's name and address", async ({ page, request }) => {
    const email = uniqueEmail('feedback');
    await signUpThroughApi(request, email, 'Hay-bales-in-June', 'Nell Feedback');
    await signInThroughApi(page.request, email, 'Hay-bales-in-June');
    await page.goto('/feedback');
    const form = page.getByRole('form', { name: 'Feedback form' });
    await expect(form.getByLabel('Name')).toHaveValue('Nell Feedback');
    await expect(form.getByLabel('Email')).toHaveValue(email);
  });
});

test.describe('newsletter', () => {
  test('the footer Subscribe box mails a confirmation link that confirms the subscription', async ({ page }) => {
    const email = uniqueEmail('reader');
    await page.goto('/');
    const box = page.getByRole('form', { name: 'Newsletter sign-up' });
    await box.getByLabel('Email address').fill(email);
    await box.getByRole('button', { name: 'Subscribe' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Please check your inbox' })).toBeVisible();
    await expect(box.getByLabel('Email address')).toHaveValue('');

    await page.goto(await mailedLink(email, '/newsletter/confirm'));
    await expect(page.getByTestId('newsletter-done')).toHaveText(
      'Your subscription is confirmed. The Fieldmarket newsletter will arrive in your inbox.',
    );
    // The welcome mail carries the one-click way out.
    await page.goto(await mailedLink(email, '/newsletter/unsubscribe'));
    await expect(page.getByTestId('newsletter-done')).toHaveText(
      'You have been unsubscribed and will receive no more newsletters from Fieldmarket.',
    );
  });
});
