import { expect, test } from '@playwright/test';
import { outboxMails } from './outbox.js';

test.describe('contact form', () => {
  test('shows each validation message of the spec', async ({ page }) => {
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByRole('button', { name: 'Send Message' }).click();
    for (const message of ['Name is required', 'Email is required', 'Subject is required', 'Message is required']) {
      await expect(form.getByText(message, { exact: true })).toBeVisible();
    }
    await expect(form.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');

    await form.getByLabel('Email').fill('jane@');
    await form.getByLabel('Message').fill('Too short');
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByText('Please enter a valid email address', { exact: true })).toBeVisible();
    await expect(form.getByText('Message must be at least 10 characters', { exact: true })).toBeVisible();
  });

  test('a valid message is sent, confirmed, e-mailed, and the form resets', async ({ page }) => {
    const subject = `Hay delivery ${Date.now()}`;
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Jane Farmer');
    await form.getByLabel('Email').fill('jane@example.co.uk');
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('Do you deliver hay bales to Dorset farms?');
    await form.getByRole('button', { name: 'Send Message' }).click();

    await expect(page.getByTestId('toast').filter({ hasText: 'Message Sent Successfully!' })).toHaveAttribute('data-variant', 'success');
    await expect(page.getByTestId('contact-success')).toBeVisible();

    await expect
      .poll(async () =>
        (await outboxMails())
          .filter((m) => m.subject.includes(subject))
          .map((m) => m.to)
          .sort(),
      )
      .toEqual(['jane@example.co.uk', 'support@fieldmarket.co.uk']);

    // The banner shows for 3 seconds, then the form is empty again.
    await expect(page.getByTestId('contact-success')).toBeHidden({ timeout: 6_000 });
    await expect(form.getByLabel('Subject')).toHaveValue('');
  });
});
