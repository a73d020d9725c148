import type { Browser, BrowserContext, Page } from '@playwright/test';
import { baseURL } from '../playwright.config.js';
import { expect, test } from './fixtures.js';
import { photoPng } from './photos.js';
import { declareFirstListing, finishDetails, placeNamed, postListing, signUpVerified, uniqueWord } from './sellers.js';

let clients = 0;
/** A signed-in member in a browser context of their own (an address of their own, for the sign-up limits). */
async function person(browser: Browser, name: string): Promise<{ context: BrowserContext; page: Page }> {
  clients += 1;
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.252.${clients}.${(Date.now() % 250) + 1}` },
  });
  const page = await context.newPage();
  await signUpVerified(page.request, name);
  return { context, page };
}

/** A date `offset` days from today (YYYY-MM-DD). */
const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);

test('a cattle listing with TB and tag details is posted through the wizard and found by "pre-movement test valid on"', async ({
  page,
  browser,
}) => {
  await signUpVerified(page.request, 'Colin Cattleman');
  const title = `Angus ${uniqueWord()} heifers`;
  await page.goto('/post-listing');
  await page.locator('[data-file-input]').setInputFiles([{ name: 'heifers.png', mimeType: 'image/png', buffer: photoPng(320, 240) }]);
  await expect(page.locator('[data-photo]').getByText('Main photo')).toBeVisible();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByText('For Sale').click();
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Category').selectOption('livestock');
  await page.getByLabel('Species').selectOption('cattle');
  await page.getByLabel('Head count (head)').fill('2');
  await page.getByLabel('Holding number (CPH)').fill('12/345/6789');
  await page.getByLabel('Ear tags').fill('UK 284205 700016\nUK 284205 100017');
  await page.getByLabel('Herd TB status').selectOption('otf');
  await page.getByLabel('Pre-movement TB test').fill(day(-10));
  await expect(page.locator('[data-livestock-movement]')).toContainText('seller’s own declaration');
  await finishDetails(page, '1450', 'Two quiet Angus heifers from a closed herd, halter trained, good feet, ready to go.');
  await page.getByRole('button', { name: 'Next' }).click();
  await declareFirstListing(page);
  const published = page.waitForResponse((r) => r.url().endsWith('/api/listings') && r.request().method() === 'POST');
  await page.getByRole('button', { name: 'Publish Listing' }).click();
  const { data } = (await (await published).json()) as { data: { id: string } };

  // A visitor finds it among tests valid 40 days on, not 60 days on, and sees no full holding number or tags.
  const visitor = await browser.newPage({ baseURL });
  await visitor.goto(`/browse?category=livestock&pre_movement_test_valid_on=${day(40)}`);
  await expect(visitor.getByRole('link', { name: title })).toBeVisible();
  await visitor.goto(`/browse?category=livestock&pre_movement_test_valid_on=${day(60)}`);
  await expect(visitor.locator('[data-browse-results]')).not.toContainText(title);
  await visitor.goto(`/listing/${data.id}`);
  await expect(visitor.getByText('Pre-movement test valid until')).toBeVisible();
  await expect(visitor.getByText('12/345/····')).toBeVisible();
  const html = await visitor.content();
  expect(html).not.toContain('6789');
  expect(html).not.toContain('700016');
  await visitor.close();
});

test('40 acres of grazing per acre per season: the total with VAT before sending, and on the owner’s request card', async ({ browser }) => {
  const owner = await person(browser, 'Gwen Grassland');
  const renter = await person(browser, 'Rob Rearer');
  const place = await placeNamed(owner.page.request, 'Minehead');
  const { id } = await postListing(owner.page.request, {
    type: 'rent',
    category: 'rentals',
    subcategory: 'land',
    title: `Summer grazing ${uniqueWord()}`,
    price: 25,
    price_unit: 'per-acre-season',
    vat: 'plus-vat',
    location: place.label,
    place_id: place.id,
    attributes: { acres: 40, available_from: day(1), available_to: day(200) },
  });

  await renter.page.goto(`/listing/${id}?book=1`);
  const dialog = renter.page.getByRole('dialog', { name: 'Book Now' });
  await dialog.getByLabel('From').fill(day(10));
  await dialog.getByLabel('To').fill(day(190));
  await dialog.getByLabel('Acres').fill('40');
  await expect(dialog.locator('[data-quote-basis]')).toHaveText('40 acres × 1 season × £25.00 per acre per season = £1,000.00');
  await expect(dialog.locator('[data-quote-vat]')).toHaveText('VAT at 20%: £200.00');
  await expect(dialog.locator('[data-quote-total]')).toHaveText('Total: £1,200.00');
  await dialog.getByRole('button', { name: 'Send Request' }).click();
  await expect(renter.page.getByTestId('toast').filter({ hasText: 'Booking Request Sent' })).toBeVisible();

  await owner.page.goto('/messages');
  await owner.page.getByTestId('conversation-row').filter({ hasText: 'Rob Rearer' }).click();
  const quote = owner.page.getByTestId('booking-card').getByTestId('booking-quote');
  await expect(quote).toContainText('VAT at 20%: £200.00');
  await expect(quote).toContainText('Total: £1,200.00');
  await owner.context.close();
  await renter.context.close();
});
