import { signInWithForm } from './account-steps.js';
import { expect, test } from './fixtures.js';
import { MAIL_POLL_INTERVALS, outboxMails } from './outbox.js';
import { PASSWORD, photosReady, placeNamed, postListing, signUpVerified, SITE, uniqueWord, uploadPhotos } from './sellers.js';

interface AlertMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  listUnsubscribe?: string;
}

test.describe('saved searches', () => {
  test('a visitor saves a search through sign-in; a seller’s match rings the bell and mails; a price drop too; the mail renders and its link stops it', async ({
    page,
    browser,
  }) => {
    // An account made elsewhere: this browser stays signed out until the save asks it to sign in.
    const accounts = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const jane = await signUpVerified(accounts.request, 'Jane Searcher');
    await accounts.close();

    const word = uniqueWord();
    await page.goto(`/browse?q=${word}&category=equipment`);
    await page.getByRole('button', { name: 'Save this search' }).click();
    await expect(page).toHaveURL(/\/signin\?redirect=/);
    await signInWithForm(page, jane.email, PASSWORD);
    await expect(page.getByText(`Saved as “${word} in Equipment”`)).toBeVisible();
    await expect(page).not.toHaveURL(/save_search/);

    await page.goto('/profile#saved-searches');
    const saved = page.getByTestId('saved-search');
    await expect(saved).toHaveCount(1);
    await expect(saved.getByRole('link', { name: `${word} in Equipment` })).toBeVisible();

    // Another user posts a matching listing: the bell rings live, and a mail goes out.
    const seller = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': '10.200.4.9' },
    });
    try {
      await signUpVerified(seller.request, 'Sam Seller');
      const taunton = await placeNamed(seller.request, 'Taunton');
      const images = await uploadPhotos(seller.request);
      const body = {
        category: 'equipment',
        title: `Round baler ${word}`,
        price: 12500,
        vat: 'plus-vat',
        location: taunton.label,
        place_id: taunton.id,
        images,
      };
      const { id } = await postListing(seller.request, body);
      await page.getByTestId('notifications-bell').click();
      const panel = page.getByRole('region', { name: 'Notifications' });
      await expect(panel.getByTestId('notification').filter({ hasText: `"Round baler ${word}" matches your saved search` })).toBeVisible();

      let mail: AlertMail | undefined;
      await expect
        .poll(
          async () => {
            mail = (await outboxMails()).find((m) => m.to === jane.email && m.subject.includes('saved search')) as AlertMail | undefined;
            return mail?.subject;
          },
          { timeout: 20_000, intervals: MAIL_POLL_INTERVALS },
        )
        .toBe(`A new match for your saved search "${word} in Equipment"`);
      expect(mail?.text).toContain('£12,500 + VAT · Taunton');

      // The seller lowers the price: a price-drop alert in the bell.
      const change = await seller.request.put(`/api/listings/${id}`, {
        headers: SITE,
        data: {
          type: 'sale',
          price_unit: 'total',
          description: 'Well looked after and ready to work this season; viewing welcome.',
          attributes: {},
          confirm_over_18: true,
          ...body,
          price: 11000,
        },
      });
      expect(change.status()).toBe(200);
      await expect(
        panel
          .getByTestId('notification')
          .filter({ hasText: `"Round baler ${word}" (your saved search "${word} in Equipment") is now £11,000.` }),
      ).toBeVisible();

      // The mail as a mail app shows it (its HTML), looked at in a screenshot, once the listing's photo
      // has been resized (the mail links a resized variant, which is not served before).
      await photosReady(seller.request, id);
      // (Written into a page of the site's public origin: its photos are served same-origin only, Cross-Origin-Resource-Policy.)
      const shown = await page.context().newPage();
      await shown.goto(new URL('/about', mail?.listUnsubscribe).href);
      await shown.setContent(mail?.html ?? '');
      await expect
        .poll(() =>
          shown
            .locator('img')
            .first()
            .evaluate((img: HTMLImageElement) => img.naturalWidth),
        )
        .toBeGreaterThan(0);
      await expect(shown.getByRole('link', { name: `Round baler ${word}` })).toBeVisible();
      await expect(shown.getByText('£12,500 + VAT')).toBeVisible();
      await shown.screenshot({ path: test.info().outputPath('alert-mail.png'), fullPage: true });
      await shown.close();

      // Its unsubscribe link stops this search's e-mails.
      const link = /(\/saved-searches\/unsubscribe\?token=[\w,-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
      await page.goto(link);
      await page.getByRole('button', { name: 'Stop these e-mails' }).click();
      await expect(page.getByTestId('unsubscribe-done')).toHaveText('You will no longer get e-mails about this saved search.');
      await page.goto('/profile#saved-searches');
      await expect(page.getByTestId('saved-search').getByLabel('E-mail me')).toHaveValue('off');
    } finally {
      await seller.close();
    }
  });
});
