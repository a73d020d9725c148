import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { baseURL } from '../playwright.config.js';
import { expect, test } from './fixtures.js';
import { photoPng } from './photos.js';
import { declareFirstListing, finishDetails, placeNamed, postListing, signUpVerified, uniqueWord } from './sellers.js';

/** Screenshots for people to look at (not compared): e2e/screenshots/, ignored by git. */
const SCREENSHOTS = resolve(import.meta.dirname, '..', 'screenshots');

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
  // Two head for £1,450 the lot: the card gives the price a head too.
  await expect(visitor.locator('.listing-card', { hasText: title }).locator('.listing-card__price')).toHaveText(
    '£1,450 the lot · £725 a head · No VAT',
  );
  await visitor.goto(`/browse?category=livestock&pre_movement_test_valid_on=${day(60)}`);
  await expect(visitor.locator('[data-browse-results]')).not.toContainText(title);
  await visitor.goto(`/listing/${data.id}`);
  await expect(visitor.getByText('Pre-movement test valid until')).toBeVisible();
  await expect(visitor.getByText('12/345/····')).toBeVisible();
  // Shrewsbury is in England: the TB area is left to the official map, not guessed.
  await expect(visitor.getByText(/^England: High Risk, Edge or Low Risk Area by location: see the official TB map/)).toBeVisible();
  await visitor.setViewportSize({ width: 390, height: 844 });
  await visitor.screenshot({ path: join(SCREENSHOTS, 'cattle-listing-390.png'), fullPage: true });
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

test('a buyer posts a wanted ad in the wizard, and a seller whose listing matches it sees it counted', async ({ browser }) => {
  const buyer = await person(browser, 'Wyn Wizard-Wanted');
  const title = `Wanted: Texel ${uniqueWord()} ewe lambs`;
  await buyer.page.setViewportSize({ width: 390, height: 844 });
  await buyer.page.goto('/post-listing?type=wanted');
  // No photo: a wanted ad needs none.
  await buyer.page.getByRole('button', { name: 'Next' }).click();
  await expect(buyer.page.getByRole('radio', { name: 'Wanted' })).toBeChecked();
  await buyer.page.getByLabel('Title').fill(title);
  await buyer.page.getByLabel('Category').selectOption('livestock');
  await buyer.page.getByLabel('Most you will pay (£)').fill('120');
  await buyer.page.getByLabel('Price is').selectOption('per-head');
  await buyer.page.getByLabel('Location').fill('Shrewsbury');
  await buyer.page
    .getByRole('option', { name: /^Shrewsbury/ })
    .first()
    .click();
  await buyer.page.getByLabel('Sellers within').selectOption('25');
  await buyer.page.getByLabel('Age (months) from').fill('10');
  await buyer.page.getByLabel('Age (months) to').fill('12');
  await buyer.page.getByLabel('Breed', { exact: true }).fill('Texel');
  // What identifies a seller's own animals is not asked of a buyer.
  await expect(buyer.page.getByLabel('Holding number (CPH)')).toHaveCount(0);
  await buyer.page.screenshot({ path: join(SCREENSHOTS, 'wizard-wanted-390.png'), fullPage: true });
  await buyer.page.getByRole('button', { name: 'Next' }).click();
  await buyer.page
    .getByRole('textbox', { name: 'Description' })
    .fill('Looking for Texel ewe lambs to join our flock this autumn; we can collect within 25 miles of Shrewsbury.');
  await buyer.page.getByRole('button', { name: 'Next' }).click();
  await expect(buyer.page.locator('[data-review]')).toContainText('10 to 12 months');
  await declareFirstListing(buyer.page);
  const posted = buyer.page.waitForResponse((r) => r.url().endsWith('/api/listings') && r.request().method() === 'POST');
  await buyer.page.getByRole('button', { name: 'Publish Listing' }).click();
  const answer = await posted;
  expect(answer.status()).toBe(201);
  expect(((await answer.json()) as { data: unknown }).data).toMatchObject({
    type: 'wanted',
    price_unit: 'per-head',
    wanted_ranges: { age_months_min: 10, age_months_max: 12 },
    wanted_radius: 25,
  });
  await expect(buyer.page.getByRole('heading', { name: 'Listing Published!' })).toBeVisible();
  await buyer.context.close();

  // A seller's twenty lambs of eleven months at £110 a head, near Shrewsbury: the success screen counts the buyer.
  // (Ten to twelve months: the wanted ad of listings.spec, six to nine, near Shrewsbury too, does not answer.)
  const seller = await person(browser, 'Sid Wizard-Seller');
  await seller.page.goto('/post-listing');
  await seller.page.locator('[data-file-input]').setInputFiles([{ name: 'lambs.png', mimeType: 'image/png', buffer: photoPng(320, 240) }]);
  await expect(seller.page.locator('[data-photo]').getByText('Main photo')).toBeVisible();
  await seller.page.getByRole('button', { name: 'Next' }).click();
  await seller.page.getByText('For Sale').click();
  await seller.page.getByLabel('Title').fill('Twenty Texel ewe lambs');
  await seller.page.getByLabel('Category').selectOption('livestock');
  await seller.page.getByLabel('Price is').selectOption('per-head');
  await seller.page.getByLabel('Age (months)').fill('11');
  await seller.page.getByLabel('Head count (head)').fill('20');
  await finishDetails(seller.page, '110', 'Twenty Texel ewe lambs born last winter, wormed and vaccinated, ready to go to a new flock.');
  await seller.page.getByRole('button', { name: 'Next' }).click();
  await declareFirstListing(seller.page);
  await seller.page.getByRole('button', { name: 'Publish Listing' }).click();
  await expect(seller.page.locator('[data-wanted-by]')).toHaveText(
    '1 buyer wants this: their wanted ad matches your listing, and they have been told about it.',
  );
  await seller.context.close();
});
