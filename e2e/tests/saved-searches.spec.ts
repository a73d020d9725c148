import { signInWithForm } from './account-steps.js';
import { expect, test } from './fixtures.js';
import { productDatabase } from './database.js';
import { MAIL_POLL_INTERVALS, outboxMails } from './outbox.js';
import { PASSWORD, photosReady, placeNamed, postListing, signUpVerified, SITE, uniqueWord, uploadPhotos } from './sellers.js';

interface AlertMail {
  to: string;
  subject: string;
  text: string;
  html?: string;
  listUnsubscribe?: string;
}

/** The first alert mail to `email` whose subject mentions `about`, once its subject is `subject`. */
async function alertMail(email: string, about: string, subject: string, timeout: number): Promise<AlertMail> {
  let mail: AlertMail | undefined;
  await expect
    .poll(
      async () => {
        mail = (await outboxMails()).find((m) => m.to === email && m.subject.includes(about)) as AlertMail | undefined;
        return mail?.subject;
      },
      { timeout, intervals: MAIL_POLL_INTERVALS },
    )
    .toBe(subject);
  return mail as AlertMail;
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

      const mail = await alertMail(jane.email, 'saved search', `A new match for your saved search "${word} in Equipment"`, 20_000);
      expect(mail.text).toContain('£12,500 + VAT · Taunton');

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
      await shown.goto(new URL('/about', mail.listUnsubscribe).href);
      await shown.setContent(mail.html ?? '');
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
      const link = /(\/saved-searches\/unsubscribe\?token=[\w,-]+)/.exec(mail.text ?? '')?.[1] ?? '';
      await page.goto(link);
      await page.getByRole('button', { name: 'Stop these e-mails' }).click();
      await expect(page.getByTestId('unsubscribe-done')).toHaveText('You will no longer get e-mails about this saved search.');
      await page.goto('/profile#saved-searches');
      await expect(page.getByTestId('saved-search').getByLabel('E-mail me')).toHaveValue('off');

      // Opened from the profile, the search's page comes at once; its matches are then no longer new.
      await expect(page.getByTestId('saved-search').getByTestId('new-matches')).toHaveText('1 new');
      await page
        .getByTestId('saved-search')
        .getByRole('link', { name: `${word} in Equipment` })
        .click();
      await expect(page).toHaveURL(new RegExp(`/browse\\?q=${word}`));
      await expect
        .poll(async () => {
          await page.goto('/profile#saved-searches');
          await expect(page.getByTestId('saved-search')).toHaveCount(1);
          return page.getByTestId('new-matches').count();
        })
        .toBe(0);
    } finally {
      await seller.close();
    }
  });

  test('the daily digest renders with its photos where webmail shows it, and its unsubscribe links work (one click, and the page)', async ({
    page,
    browser,
  }) => {
    // The digest goes out at the digest job's next look after its 07:00 (every 2 s here: playwright.config.ts).
    test.setTimeout(120_000);
    const jane = await signUpVerified(page.request, 'Jane Digest');
    const word = uniqueWord();
    const saves = [`q=${word}+baler`, `q=${word}+trailer`];
    const searches: Array<{ id: string }> = [];
    for (const query of saves) {
      const saved = await page.request.post('/api/saved-searches', { headers: SITE, data: { query, frequency: 'daily' } });
      expect(saved.status()).toBe(201);
      searches.push(((await saved.json()) as { data: { id: string } }).data);
    }
    const seller = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': '10.200.4.10' },
    });
    const listings: string[] = [];
    try {
      await signUpVerified(seller.request, 'Sam Seller');
      const taunton = await placeNamed(seller.request, 'Taunton');
      for (const [title, price] of [
        [`Round baler ${word}`, 12500],
        [`Bale trailer ${word}`, 4200],
      ] as const) {
        const images = await uploadPhotos(seller.request);
        const { id } = await postListing(seller.request, {
          category: 'equipment',
          title,
          price,
          vat: 'plus-vat',
          location: taunton.label,
          place_id: taunton.id,
          images,
        });
        await photosReady(seller.request, id);
        listings.push(id);
      }
    } finally {
      await seller.close();
    }
    // As an operator could: the matches recorded yesterday, so this morning's 07:00 digest is due with them.
    const db = await productDatabase();
    try {
      await expect
        .poll(async () => (await db.query('select 1 from saved_search_hit where listing_id = any($1::uuid[])', [listings])).rowCount)
        .toBe(2);
      await db.query(`update saved_search_hit set matched_at = now() - interval '1 day' where listing_id = any($1::uuid[])`, [listings]);
      await db.query(`update saved_search set digest_due_at = null where id = any($1::uuid[])`, [searches.map((s) => s.id)]);
    } finally {
      await db.end();
    }
    const mail = await alertMail(jane.email, 'digest', 'Your daily saved-search digest: 2 new matches', 30_000);

    // Shown as webmail shows it: the HTML in a page of another origin, its photos loaded from the site.
    const shown = await page.context().newPage();
    await shown.setContent(mail.html ?? '');
    const photos = shown.locator('img');
    await expect(photos).toHaveCount(2);
    for (const photo of await photos.all()) {
      await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    }
    await expect(shown.getByRole('heading', { name: `${word} baler` })).toBeVisible();
    await expect(shown.getByRole('heading', { name: `${word} trailer` })).toBeVisible();
    await expect(shown.getByRole('link', { name: `Round baler ${word}` })).toBeVisible();
    await expect(shown.getByText('£4,200 + VAT')).toBeVisible();
    await shown.screenshot({ path: test.info().outputPath('digest-mail.png'), fullPage: true });
    await shown.close();

    // One click, as a mail app sends it (RFC 8058): both searches stop e-mailing.
    const oneClick = await page.request.post(mail.listUnsubscribe ?? '', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status()).toBe(200);
    const listed = async () =>
      (
        (await (await page.request.get('/api/saved-searches', { headers: SITE })).json()) as {
          data: Array<{ id: string; frequency: string }>;
        }
      ).data
        .filter((s) => searches.some((mine) => mine.id === s.id))
        .map((s) => s.frequency);
    expect(await listed()).toEqual(['off', 'off']);

    // The link page does the same from a browser: back on, then stopped there.
    for (const search of searches) {
      const back = await page.request.patch(`/api/saved-searches/${search.id}`, { headers: SITE, data: { frequency: 'daily' } });
      expect(back.status()).toBe(200);
    }
    const link = /(\/saved-searches\/unsubscribe\?token=[\w,-]+)/.exec(mail.text ?? '')?.[1] ?? '';
    await page.goto(link);
    await page.getByRole('button', { name: 'Stop these e-mails' }).click();
    await expect(page.getByTestId('unsubscribe-done')).toBeVisible();
    expect(await listed()).toEqual(['off', 'off']);
  });
});
