import { expect, test } from './fixtures.js';
import { boxOf, overlaps } from './layout.js';
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
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST');
    await form.getByRole('button', { name: 'Send Message' }).click();
    const { id } = ((await (await sent).json()) as { data: { id: string } }).data;

    const toast = page.getByTestId('toast').filter({ hasText: 'Message Sent Successfully!' });
    await expect(toast).toHaveAttribute('data-variant', 'success');
    await expect(page.getByTestId('contact-success')).toBeVisible();
    // The toast leaves the header's account and posting buttons usable.
    for (const name of ['Sign In', 'Post Listing']) {
      expect(overlaps(await boxOf(toast), await boxOf(page.getByRole('link', { name, exact: true })))).toBe(false);
    }

    await expect
      .poll(async () =>
        (await outboxMails())
          .filter((m) => m.messageId.includes(id))
          .map((m) => m.to)
          .sort(),
      )
      .toEqual(['jane@example.co.uk', 'support@fieldmarket.co.uk']);

    // The banner shows for 3 seconds, then the form is empty again.
    await expect(page.getByTestId('contact-success')).toBeHidden({ timeout: 6_000 });
    await expect(form.getByLabel('Subject')).toHaveValue('');
  });
});

test.describe('contact form against server-side rules', () => {
  test('refuses an address the API refuses, in the same words, and sends nothing', async ({ page, request }) => {
    const subject = `Server check ${Date.now()}`;
    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Jane Farmer');
    await form.getByLabel('Email').fill('jane..farmer@example.co.uk');
    await form.getByLabel('Subject').fill(subject);
    await form.getByLabel('Message').fill('Is the hay still available?');
    await form.getByRole('button', { name: 'Send Message' }).click();

    await expect(page.getByTestId('contact-email-error')).toHaveText('Please enter a valid email address');
    await expect(form.getByLabel('Subject')).toHaveValue(subject); // nothing the user typed is lost
    expect((await outboxMails()).filter((m) => m.subject.includes(subject))).toHaveLength(0);

    // The rules are one source: the API answers the same address with the same message.
    const api = await request.post('/api/contact', {
      data: { name: 'Jane Farmer', email: 'jane..farmer@example.co.uk', subject, message: 'Is the hay still available?' },
    });
    expect(api.status()).toBe(400);
    expect(await api.json()).toMatchObject({ fields: { email: 'Please enter a valid email address' } });
  });

  test('tells the user when they have sent too many messages', async ({ page, request }) => {
    const message = { name: 'Flood', email: 'flood@example.co.uk', subject: 'Again', message: 'Sending this again and again' };
    let status = 0;
    for (let i = 0; i < 10 && status !== 429; i++) status = (await request.post('/api/contact', { data: message })).status();
    expect(status).toBe(429);

    await page.goto('/contact');
    const form = page.getByRole('form', { name: 'Contact form' });
    await form.getByLabel('Name').fill('Jane Farmer');
    await form.getByLabel('Email').fill('jane@example.co.uk');
    await form.getByLabel('Subject').fill('One more');
    await form.getByLabel('Message').fill('Is the hay still available?');
    await form.getByRole('button', { name: 'Send Message' }).click();

    const toast = page.getByTestId('toast').filter({ hasText: 'Too many messages from your connection' });
    await expect(toast).toHaveAttribute('data-variant', 'destructive');
    await expect(form.getByLabel('Subject')).toHaveValue('One more');
  });
});
