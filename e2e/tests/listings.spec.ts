import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { baseURL } from '../playwright.config.js';
import { expect, test } from './fixtures.js';
import { placeNamed, postListing, signUpVerified, SITE, uniqueWord } from './sellers.js';

const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');
const cards = (page: Page) => page.locator('[data-browse-results] .listing-card');

/** Changes the wizard's stored draft (call it from a page other than the wizard). */
async function editDraft(page: Page, key: string, changes: Record<string, unknown>): Promise<void> {
  await page.evaluate(
    ({ key, changes }) => {
      const draft = JSON.parse(localStorage.getItem(key) ?? '{}') as Record<string, unknown>;
      localStorage.setItem(key, JSON.stringify({ ...draft, ...changes }));
    },
    { key, changes },
  );
}

test.describe('browse', () => {
  test('finds a listing by text, by a typo, by place and radius, and by a category field; filters survive a reload', async ({ page }) => {
    await signUpVerified(page.request, 'Tom Baler');
    const word = uniqueWord();
    const taunton = await placeNamed(page.request, 'Taunton');
    const inverness = await placeNamed(page.request, 'Inverness');
    await postListing(page.request, {
      category: 'equipment',
      title: `Massey Ferguson ${word} tractor`,
      price: 38500,
      vat: 'plus-vat',
      location: taunton.label,
      place_id: taunton.id,
      attributes: { make: 'Massey Ferguson', year: 2019, hours: 2400 },
    });
    await postListing(page.request, {
      category: 'equipment',
      title: `Grey Fergie ${word} tractor`,
      price: 4200,
      location: inverness.label,
      place_id: inverness.id,
      attributes: { year: 1956 },
    });

    // By text, typed into the filter panel.
    await page.goto('/browse');
    await page.getByLabel('Search').fill(word);
    await page.getByLabel('Search').press('Enter');
    await expect(page).toHaveURL(new RegExp(`q=${word}`));
    await expect(cards(page)).toHaveCount(2);
    await expect(page.getByText('2 listings', { exact: true })).toBeVisible();

    // By a typo: the page says which words it searched instead.
    const typo = `${word.slice(0, 4)}${word[4] === 'a' ? 'e' : 'a'}${word.slice(5)}`;
    await page.goto(`/browse?q=${typo}`);
    await expect(page.locator('[data-searched-for]')).toContainText(`Showing results for ${word}`);
    await expect(cards(page)).toHaveCount(2);

    // By place and radius: Exeter is about 30 miles from Taunton and far from Inverness.
    await page.goto(`/browse?q=${word}`);
    await page.getByLabel('Location').fill('Exeter');
    await page
      .getByRole('option', { name: /^Exeter/ })
      .first()
      .click();
    await page.getByLabel('Within').selectOption('50');
    await expect(page).toHaveURL(/location=\d+/);
    await expect(page).toHaveURL(/radius=50/);
    await expect(cards(page)).toHaveCount(1);
    await expect(cards(page).first()).toContainText('Massey Ferguson');
    await expect(cards(page).first()).toContainText('miles away');

    // By a category field: equipment from 2000 on, anywhere.
    await page.goto(`/browse?q=${word}`);
    await page.getByLabel('Category').selectOption('equipment');
    await expect(page.getByLabel('Year minimum')).toBeVisible();
    await page.getByLabel('Year minimum').fill('2000');
    await page.getByRole('button', { name: 'Apply Filters' }).click();
    await expect(page).toHaveURL(/year_min=2000/);
    await expect(cards(page)).toHaveCount(1);
    await expect(page.locator('[data-filter-panel] [data-filter-count]')).toHaveText('2');

    // Reload: the URL holds every filter.
    await page.reload();
    await expect(page.getByLabel('Year minimum')).toHaveValue('2000');
    await expect(page.getByLabel('Category')).toHaveValue('equipment');
    await expect(cards(page)).toHaveCount(1);
    await expect(page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Equipment' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  test('Load More appends the next page without duplicates', async ({ page }) => {
    const word = uniqueWord();
    const place = await placeNamed(page.request, 'Yeovil');
    // 20 a day is one seller's limit: two sellers post 23 between them.
    for (const [seller, count] of [
      ['Ann Hay', 20],
      ['Bob Straw', 3],
    ] as const) {
      await page.context().clearCookies();
      await signUpVerified(page.request, seller);
      for (let i = 0; i < count; i += 1) {
        await postListing(page.request, {
          category: 'land',
          title: `${word} paddock ${seller} ${i}`,
          price: 1000 + i,
          location: place.label,
          place_id: place.id,
        });
      }
    }
    await page.goto(`/browse?q=${word}&sort=newest`);
    await expect(page.getByText('23 listings', { exact: true })).toBeVisible();
    await expect(cards(page)).toHaveCount(20);
    await page.getByRole('button', { name: 'Load More Listings' }).click();
    await expect(cards(page)).toHaveCount(23);
    await expect(page.getByRole('button', { name: 'Load More Listings' })).toHaveCount(0);
    const ids = await cards(page).evaluateAll((elements) => elements.map((element) => element.getAttribute('data-listing-id')));
    expect(new Set(ids).size).toBe(23);
  });

  test('works with JavaScript disabled: the GET form and the Next page link', async ({ page, browser }) => {
    const word = uniqueWord();
    await signUpVerified(page.request, 'Nora Script');
    const place = await placeNamed(page.request, 'Truro');
    for (let i = 0; i < 3; i += 1)
      await postListing(page.request, {
        category: 'services',
        title: `${word} hedge cutting ${i}`,
        price: 40,
        location: place.label,
        place_id: place.id,
      });
    const context = await browser.newContext({ javaScriptEnabled: false, baseURL, extraHTTPHeaders: { 'x-forwarded-for': '10.250.1.9' } });
    const visitor = await context.newPage();
    const response = await visitor.goto('/browse');
    expect(response?.status()).toBe(200);
    await visitor.getByLabel('Search').fill(word);
    await visitor.getByLabel('Location').fill('Truro');
    await visitor.getByRole('button', { name: 'Apply Filters' }).click();
    await expect(visitor).toHaveURL(new RegExp(`q=${word}`));
    await expect(visitor.locator('.listing-card')).toHaveCount(3);
    await expect(visitor.getByLabel('Location')).toHaveValue(/^Truro/);
    await expect(visitor.locator('.listing-card').first()).toContainText(/mile away|miles away/);
    // Pages of two: the server's Next page link leads to the last one.
    await visitor.goto(`/browse?q=${word}&sort=oldest&limit=2`);
    await expect(visitor.locator('.listing-card')).toHaveCount(2);
    await visitor.getByRole('link', { name: 'Next page' }).click();
    await expect(visitor.locator('.listing-card')).toHaveCount(1);
    await expect(visitor.locator('.listing-card')).toContainText(`${word} hedge cutting 2`);
    await expect(visitor.getByRole('link', { name: 'First page' })).toBeVisible();
    await context.close();
  });
});

test.describe('listing page', () => {
  test('shows £ with unit and VAT and JSON-LD; saving raises the count; the owner marks it sold and deletes it', async ({
    page,
    browser,
  }) => {
    const word = uniqueWord();
    await signUpVerified(page.request, 'Sally Seller');
    const place = await placeNamed(page.request, 'Hereford');
    const { id } = await postListing(page.request, {
      category: 'livestock',
      title: `Twenty ${word} heifers </script><script>alert(1)</script>`,
      price: 1450,
      price_unit: 'per-head',
      vat: 'no-vat',
      location: place.label,
      place_id: place.id,
      attributes: { breed: 'Hereford', sex: 'female', head_count: 20 },
    });

    // A buyer saves it.
    const buyerContext = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': '10.250.2.7' } });
    const buyer = await buyerContext.newPage();
    await signUpVerified(buyer.request, 'Bill Buyer');
    await buyer.goto(`/listing/${id}`);
    await expect(buyer.getByTestId('listing-price')).toHaveText('£1,450 · per head · No VAT');
    await expect(buyer.getByText('Head count')).toBeVisible();
    await expect(buyer.getByText('20 head')).toBeVisible();
    await expect(buyer.getByTestId('seller-card')).toContainText('Sally Seller');
    await expect(buyer.getByTestId('seller-card')).toContainText(`Member since ${new Date().getFullYear()}`);
    const jsonLd = JSON.parse((await buyer.locator('script[type="application/ld+json"]').textContent()) ?? '{}') as {
      '@type': string;
      name: string;
      offers: { priceCurrency: string; price: string };
    };
    expect(jsonLd['@type']).toBe('Product');
    expect(jsonLd.name).toContain('</script>');
    expect(jsonLd.offers).toMatchObject({ priceCurrency: 'GBP', price: '1450.00' });
    expect(await buyer.locator('meta[property="og:title"]').getAttribute('content')).toContain(word);
    await expect(buyer.getByTestId('listing-saves')).toHaveText('0 saves');
    await buyer.getByRole('button', { name: 'Save Listing' }).click();
    await expect(buyer.getByTestId('toast').filter({ hasText: 'Listing saved' })).toBeVisible();
    await expect(buyer.getByTestId('listing-saves')).toHaveText('1 save');
    await buyer.reload();
    await expect(buyer.getByRole('button', { name: 'Saved' })).toHaveAttribute('aria-pressed', 'true');
    await expect(buyer.getByTestId('listing-saves')).toHaveText('1 save');
    await buyer
      .getByRole('button', { name: 'Message Seller' })
      .or(buyer.getByRole('link', { name: 'Message Seller' }))
      .click();
    await expect(buyer.getByText('Messaging is coming soon', { exact: false })).toBeVisible();
    await buyerContext.close();

    // The seller marks it sold, then deletes it.
    await page.goto(`/listing/${id}`);
    await expect(page.getByRole('heading', { name: 'Manage your listing' })).toBeVisible();
    await page.getByRole('button', { name: 'Mark as sold' }).click();
    await expect(page.getByTestId('listing-status')).toHaveText('Sold');
    await expect(page.getByRole('button', { name: 'Renew' })).toBeVisible();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete Listing' }).click();
    await expect(page).toHaveURL(/\/browse$/);

    const gone = await page.goto(`/listing/${id}`);
    expect(gone?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: 'Listing Not Found' })).toBeVisible();
    await expect(page.getByTestId('listing-not-found').getByRole('link', { name: 'Browse Listings' })).toHaveAttribute('href', '/browse');
  });

  test('a visitor who saves is sent to sign in and come back', async ({ page, browser }) => {
    const seller = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': '10.250.3.5' } });
    const sellerPage = await seller.newPage();
    await signUpVerified(sellerPage.request, 'Vera Visitor');
    const place = await placeNamed(sellerPage.request, 'Ludlow');
    const { id } = await postListing(sellerPage.request, {
      category: 'land',
      title: `Grazing ${uniqueWord()}`,
      price: 90,
      price_unit: 'per-acre',
      location: place.label,
      place_id: place.id,
    });
    await seller.close();
    await page.goto(`/listing/${id}`);
    await page.getByRole('button', { name: 'Save Listing' }).click();
    await expect(page).toHaveURL(`/signin?redirect=${encodeURIComponent(`/listing/${id}`)}`);
  });
});

test.describe('post listing wizard', () => {
  test('a visitor is sent to sign in', async ({ page }) => {
    await page.goto('/post-listing');
    await expect(page).toHaveURL('/signin?redirect=%2Fpost-listing');
  });

  test('shows the SPEC messages, keeps a draft over a reload, and publishes', async ({ page }) => {
    await signUpVerified(page.request, 'Wendy Wizard');
    await page.goto('/post-listing');
    await expect(page.getByRole('heading', { name: 'Upload Images' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Previous' })).toBeDisabled();
    for (let step = 0; step < 3; step += 1) await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
    await page.getByRole('button', { name: 'Publish Listing' }).click();
    await expect(page.locator('[data-wizard-errors]')).toHaveText(
      'Listing type is required, Title is required, Category is required, Price is required, Location is required, Description is required, At least one image is required',
    );

    // Step 2: details. For Rent forces Rentals and asks what is rented.
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByText('For Rent').click();
    await expect(page.getByLabel('What are you renting out?')).toBeVisible();
    await page.getByText('For Sale').click();
    await page.getByLabel('Title').fill('Kverneland plough, four furrow');
    await page.getByLabel('Category').selectOption('equipment');
    await expect(page.getByLabel('Hours (hours)')).toBeVisible();
    await page.getByLabel('Year', { exact: true }).fill('2015');
    await page.getByLabel('Price (£)').fill('6,750');
    await page.getByLabel('VAT').selectOption('plus-vat');
    await page.getByLabel('Location').fill('Shrewsbury');
    await page
      .getByRole('option', { name: /^Shrewsbury/ })
      .first()
      .click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: 'Description' }).fill('Too short');
    await expect(page.getByText('9/1000 characters')).toBeVisible();
    await page.getByRole('textbox', { name: 'Description' }).fill('x'.repeat(1200));
    await expect(page.getByText('1000/1000 characters')).toBeVisible();
    await page.getByRole('textbox', { name: 'Description' }).fill('Too short');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Publish Listing' }).click();
    await expect(page.locator('[data-wizard-errors]')).toHaveText(
      'Description must be at least 50 characters, At least one image is required',
    );

    // The draft survives a reload.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Review & Submit' })).toBeVisible();
    await expect(page.locator('[data-review]')).toContainText('Kverneland plough, four furrow');
    await expect(page.locator('[data-review]')).toContainText('£6,750 + VAT');

    // Photos come from the images module (not on this branch): an uploaded photo is kept in the draft
    // by id, so the test puts one there, from another page (leaving the wizard writes its draft).
    await page.goto('/browse');
    await editDraft(page, 'fm_listing_draft', {
      images: [{ id: randomUUID(), name: 'plough.jpg' }],
      description: 'A four furrow reversible plough, always shedded, new points this year and ready to go.',
    });
    await page.goto('/post-listing');
    const published = page.waitForResponse((r) => r.url().endsWith('/api/listings') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Publish Listing' }).click();
    expect((await published).status()).toBe(201);
    await expect(page.getByRole('heading', { name: 'Listing Published!' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'View All Listings' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Post Another Listing' })).toBeVisible();
    await expect(page).toHaveURL(/\/browse$/);
    expect(await page.evaluate(() => localStorage.getItem('fm_listing_draft'))).toBeNull();
  });
});

test('the upload step: type and size checks, per-photo upload, reorder, main photo, remove (upload endpoint stubbed until the images branch is merged)', async ({
  page,
}) => {
  await signUpVerified(page.request, 'Uma Upload');
  // POST /api/upload/multiple as the images branch answers it (one file per request from the wizard).
  const uploaded: string[] = [];
  await page.route('**/api/upload/multiple', async (route) => {
    const id = randomUUID();
    uploaded.push(id);
    await route.fulfill({
      status: 201,
      contentType: 'application/json',
      body: JSON.stringify({
        success: true,
        data: { images: [{ id, status: 'processing', variants: [], url: null, width: null, height: null, position: 0 }], urls: [] },
      }),
    });
  });
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  await page.goto('/post-listing');
  const chooser = page.locator('[data-file-input]');
  await chooser.setInputFiles([{ name: 'anim.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') }]);
  await expect(page.locator('[data-field-error="images"]')).toHaveText('Please upload only JPEG, PNG, or WebP images.');
  await chooser.setInputFiles([{ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(5_242_881) }]);
  await expect(page.locator('[data-field-error="images"]')).toHaveText('Image size must be less than 5MB.');
  await chooser.setInputFiles(['front.png', 'side.png', 'back.png'].map((name) => ({ name, mimeType: 'image/png', buffer: png })));
  const photos = page.locator('[data-photo]');
  await expect(photos).toHaveCount(3);
  await expect(photos.first().getByText('Main photo')).toBeVisible();
  await expect.poll(() => uploaded.length).toBe(3);
  await expect(page.locator('[data-photos] progress')).toHaveCount(0);
  await photos.nth(2).getByRole('button', { name: 'Make main photo' }).click();
  await expect(photos.first()).toContainText('back.png');
  await expect(photos.first().getByText('Main photo')).toBeVisible();
  await photos.nth(1).getByRole('button', { name: 'Move front.png later' }).click();
  await expect(photos.nth(2)).toContainText('front.png');
  await photos.nth(1).getByRole('button', { name: 'Remove' }).click();
  await expect(photos).toHaveCount(2);
  // The draft keeps the uploaded ids in order (main photo first), never the files.
  const storedImages = async () =>
    (
      JSON.parse((await page.evaluate(() => localStorage.getItem('fm_listing_draft'))) ?? '{}') as {
        images?: Array<{ id: string; name: string }>;
      }
    ).images ?? [];
  await expect.poll(async () => (await storedImages()).map((image) => image.name)).toEqual(['back.png', 'front.png']);
  expect((await storedImages()).map((image) => image.id)).toEqual([uploaded[2], uploaded[0]]);
  await chooser.setInputFiles(Array.from({ length: 7 }, (_, i) => ({ name: `more-${i}.png`, mimeType: 'image/png', buffer: png })));
  await expect(photos).toHaveCount(8);
  await expect(page.locator('[data-field-error="images"]')).toHaveText('You can upload a maximum of 8 images.');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: join(SCREENSHOTS, 'wizard-1-photos-390.png'), fullPage: true });
});

test('a seller whose address is not confirmed is told so when publishing', async ({ page }) => {
  const email = `unconfirmed.${Date.now()}@example.co.uk`;
  const password = 'Hay-bales-in-June';
  expect((await page.request.post('/api/auth/signup', { data: { name: 'Una Confirmed', email, password }, headers: SITE })).status()).toBe(
    201,
  );
  expect((await page.request.post('/api/auth/signin', { data: { email, password }, headers: SITE })).ok()).toBe(true);
  const place = await placeNamed(page.request, 'Ross-on-Wye');
  await page.goto('/browse');
  await editDraft(page, 'fm_listing_draft', {
    type: 'sale',
    title: 'Hay, small bales',
    category: 'seeds-plants',
    price: '4',
    price_unit: 'total',
    vat: 'no-vat',
    location: place.label,
    place_id: place.id,
    description: 'Good meadow hay in small bales, stored under cover, collection from the farm only.',
    images: [{ id: randomUUID(), name: 'hay.jpg' }],
    step: 3,
  });
  await page.goto('/post-listing');
  await page.getByRole('button', { name: 'Publish Listing' }).click();
  await expect(page.locator('[data-wizard-errors]')).toContainText('Please verify your email address first.');
});

test.describe('screenshots', () => {
  test('browse, a listing and the wizard at 390px and on a desktop', async ({ page }) => {
    await signUpVerified(page.request, 'Sam Shots');
    const place = await placeNamed(page.request, 'Taunton');
    const { id } = await postListing(page.request, {
      category: 'equipment',
      title: 'John Deere 6155R with front loader',
      price: 72500,
      vat: 'plus-vat',
      location: place.label,
      place_id: place.id,
      attributes: { make: 'John Deere', model: '6155R', year: 2018, hours: 5200 },
    });
    for (const [name, size] of [
      ['390', { width: 390, height: 844 }],
      ['desktop', { width: 1366, height: 900 }],
    ] as const) {
      await page.setViewportSize(size);
      await page.goto('/browse');
      await expect(page.locator('[data-browse]')).toHaveAttribute('data-enhanced', 'true');
      // The phone's full page is ten screens of cards: its first screen says more.
      await page.screenshot({ path: join(SCREENSHOTS, `browse-${name}.png`), fullPage: name === 'desktop' });
      if (name === '390') {
        await page.getByRole('button', { name: /^Filters/ }).click();
        await page.screenshot({ path: join(SCREENSHOTS, `browse-filters-${name}.png`) });
      }
      await page.goto(`/listing/${id}`);
      await page.screenshot({ path: join(SCREENSHOTS, `listing-${name}.png`), fullPage: true });
      await page.evaluate(() => localStorage.removeItem('fm_listing_draft'));
      await page.goto('/post-listing');
      await expect(page.getByRole('heading', { name: 'Upload Images' })).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `wizard-1-${name}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByText('For Sale').click();
      await page.getByLabel('Category').selectOption('equipment');
      await page.screenshot({ path: join(SCREENSHOTS, `wizard-2-${name}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Next' }).click();
      await page.screenshot({ path: join(SCREENSHOTS, `wizard-3-${name}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Next' }).click();
      await page.getByRole('button', { name: 'Publish Listing' }).click();
      await expect(page.locator('[data-wizard-errors]')).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `wizard-4-${name}.png`), fullPage: true });
    }
  });
});

test.describe('home, category pages and edit', () => {
  test('a chip over the home grid asks the server for its category', async ({ page }) => {
    const word = uniqueWord();
    await signUpVerified(page.request, 'Hattie Home');
    const place = await placeNamed(page.request, 'Barnstaple');
    await postListing(page.request, {
      category: 'services',
      title: `Hedge laying ${word}`,
      price: 250,
      location: place.label,
      place_id: place.id,
    });
    await page.goto('/');
    const grid = page.getByTestId('featured-listings');
    await page.getByRole('button', { name: 'Services', exact: true }).click();
    await expect(grid.getByText(`Hedge laying ${word}`)).toBeVisible();
    await expect(grid.locator('.listing-card .listing-card__category').first()).toHaveText('Services');
  });

  test('the home grid shows the newest listings under a heading that says so, with no console errors', async ({ page }) => {
    // GET /api/listings/featured falls back to the newest listings *with photos*, a query on the images
    // module's table: until the images branch is merged it answers 500 on this branch.
    test.fixme(true, 'needs the images branch (GET /api/listings/featured reads its image table)');
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto('/');
    await expect(page.getByTestId('featured-listings').locator('.listing-card, [data-testid="featured-empty"]').first()).toBeVisible();
    await expect(page.getByRole('heading', { name: /^(Featured|Newest) Listings$/ })).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('rentals filter by what is rented; categories show live counts; no console errors on the listings pages', async ({ page }) => {
    const word = uniqueWord();
    await signUpVerified(page.request, 'Rita Rental');
    const place = await placeNamed(page.request, 'Bodmin');
    const { id } = await postListing(page.request, {
      type: 'rent',
      category: 'rentals',
      subcategory: 'equipment',
      title: `Muck spreader ${word} for hire`,
      price: 95,
      price_unit: 'per-day',
      vat: 'plus-vat',
      location: place.label,
      place_id: place.id,
      attributes: { available_from: '2027-03-01' },
    });
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));

    await page.goto('/rent');
    await expect(page.getByRole('heading', { name: 'Agricultural Rentals' })).toBeVisible();
    await page.getByLabel('Renting').selectOption('land');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page).toHaveURL(/subcategory=land/);
    await expect(page.getByText(`Muck spreader ${word} for hire`)).toHaveCount(0);
    await page.getByLabel('Renting').selectOption('equipment');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(page.getByText(`Muck spreader ${word} for hire`)).toBeVisible();
    await expect(page.locator('.listing-card', { hasText: word }).locator('.listing-card__price')).toHaveText('£95 · per day + VAT');

    await page.goto('/categories');
    await expect(page.getByTestId('category-rentals')).toContainText(/\d+ listings?/);

    await page.goto(`/listing/${id}`);
    await expect(page.getByText('Available from')).toBeVisible();
    await expect(page.getByText('1 March 2027')).toBeVisible();

    for (const path of [
      '/browse',
      '/browse?category=equipment&year_min=2000',
      '/land',
      '/equipment',
      '/seeds-plants',
      '/livestock',
      '/post-listing',
      `/listing/${id}`,
    ]) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
    }
    expect(errors).toEqual([]);
  });

  test('the seller edits a listing through the wizard (PUT) and sees it changed', async ({ page }) => {
    await signUpVerified(page.request, 'Eddie Edit');
    const place = await placeNamed(page.request, 'Ledbury');
    const { id } = await postListing(page.request, {
      category: 'seeds-plants',
      title: `Seed barley ${uniqueWord()}`,
      price: 300,
      price_unit: 'per-tonne',
      location: place.label,
      place_id: place.id,
    });
    await page.goto(`/listing/${id}`);
    await page.getByRole('link', { name: 'Edit' }).click();
    await expect(page).toHaveURL(`/post-listing?edit=${id}`);
    await expect(page.getByRole('heading', { name: 'Edit Listing' })).toBeVisible();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByLabel('Title')).toHaveValue(/^Seed barley/);
    await page.getByLabel('Price (£)').fill('320');
    // On this branch the API shows every listing without photos (images: []); the edit keeps one by id.
    await page.goto('/browse');
    await editDraft(page, `fm_listing_draft:edit:${id}`, { images: [{ id: randomUUID(), name: 'barley.jpg' }] });
    await page.goto(`/post-listing?edit=${id}`);
    await expect(page.getByLabel('Price (£)')).toHaveValue('320');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await expect(page).toHaveURL(`/listing/${id}`);
    await expect(page.getByTestId('listing-price')).toHaveText('£320 · per tonne · No VAT');
  });
});
