import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { baseURL } from '../playwright.config.js';
import { expect, test } from './fixtures.js';
import { outboxMails } from './outbox.js';
import { becomeStaff, grantStaff, signInAgain, turnOnTwoFactor } from './staff-people.js';

const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');
import { dealDone, photosReady, placeNamed, postListing, signUpVerified, SITE, uniqueWord } from './sellers.js';

async function newPerson(browser: Browser, address: string): Promise<Page> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'x-forwarded-for': address } });
  return context.newPage();
}

/** A member of staff as one becomes staff: signed up, granted by the command, signed in again, two-factor on. */
async function staffPerson(browser: Browser, address: string): Promise<Page> {
  const staff = await newPerson(browser, address);
  await becomeStaff(staff.request);
  return staff;
}

/** Opens the inbox item of a kind (its label in the Kind filter) that says `text`, and approves it. */
/** Opens the staff inbox showing one kind of item, once the list is the one for that kind. */
async function inboxOf(staff: Page, kind: string): Promise<void> {
  await staff.goto('/staff');
  await staff.getByRole('form', { name: 'Filters' }).getByLabel('Kind').selectOption({ label: kind });
  await expect(staff.getByRole('list', { name: 'Inbox' })).toHaveAttribute('aria-busy', 'false');
}

async function approveInInbox(staff: Page, kind: string, text: string, done: string): Promise<void> {
  await inboxOf(staff, kind);
  await staff.getByTestId('inbox-item').filter({ hasText: text }).first().click();
  const detail = staff.getByTestId('inbox-detail');
  await expect(detail.getByTestId('decision-state')).toHaveText('waiting for a decision');
  await detail.getByRole('button', { name: 'Approve' }).click();
  await expect(staff.getByTestId('toast').filter({ hasText: done })).toBeVisible();
  await expect(detail.getByTestId('decision-state')).toHaveText('approved');
}

test.describe('staff', () => {
  test('a user reports a listing; staff (granted by the command, 2FA on) hides it from the inbox and it leaves browse', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const word = uniqueWord();
    await signUpVerified(page.request, 'Sam Seller');
    const place = await placeNamed(page.request, 'Hereford');
    const { id } = await postListing(page.request, {
      category: 'equipment',
      title: `Ford ${word} tractor`,
      price: 4200,
      location: place.label,
      place_id: place.id,
    });

    // A visitor is asked to sign in; a signed-in user reports it.
    const visitor = await newPerson(browser, '10.250.9.1');
    await visitor.goto(`/listing/${id}`);
    await visitor.getByRole('button', { name: 'Report this listing' }).click();
    await expect(visitor).toHaveURL(/\/signin\?redirect=/);

    const reporter = await newPerson(browser, '10.250.9.2');
    await signUpVerified(reporter.request, 'Rita Reporter');
    await reporter.goto(`/listing/${id}`);
    await reporter.getByRole('button', { name: 'Report this listing' }).click();
    const dialog = reporter.getByRole('dialog', { name: 'Report this listing' });
    await dialog.getByRole('button', { name: 'Send Report' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please choose a reason');
    await dialog.getByLabel('Reason').selectOption('scam');
    await dialog.getByLabel('Details (optional)').fill('The seller asked for a deposit by bank transfer before viewing.');
    await dialog.getByRole('button', { name: 'Send Report' }).click();
    await expect(reporter.getByTestId('toast').filter({ hasText: 'Report sent' })).toBeVisible();
    await expect(dialog).toBeHidden();

    // Staff: granted by the command; the inbox stays closed until two-factor is on.
    const staff = await newPerson(browser, '10.250.9.3');
    const { email } = await signUpVerified(staff.request, 'Stella Staff');
    expect(await grantStaff(email)).toContain('is now staff.');
    await signInAgain(staff.request, email);
    await staff.goto('/staff');
    await expect(staff.getByTestId('staff-refusal')).toContainText('Staff pages need two-factor sign-in');
    await turnOnTwoFactor(staff.request);
    await staff.goto('/staff');
    const item = staff.getByTestId('inbox-item').filter({ hasText: `Ford ${word} tractor` });
    await expect(item).toContainText('Scam or fraud');
    await item.click();
    const detail = staff.getByTestId('inbox-detail');
    await expect(detail).toContainText('asked for a deposit by bank transfer');
    await expect(detail.getByTestId('listing-status')).toHaveText('live');
    await detail.getByLabel(/Reason/).fill('Asking for payment before viewing is not allowed on Fieldmarket.');
    await detail.getByRole('button', { name: 'Hide listing' }).click();
    await expect(staff.getByTestId('toast').filter({ hasText: 'Listing hidden' })).toBeVisible();
    await expect(detail.getByTestId('listing-status')).toHaveText('removed');
    await expect(detail.getByTestId('audit-log')).toContainText('Stella Staff — listing.hide listing: Asking for payment');

    // Gone from browse and from its page for everyone else.
    await visitor.goto(`/browse?q=${word}`);
    await expect(visitor.locator('[data-browse-results] .listing-card')).toHaveCount(0);
    expect((await visitor.goto(`/listing/${id}`))?.status()).toBe(404);
  });

  test('staff hide a listing: its photo URL fails at once; the owner reads why on a phone, appeals once, and staff restore it', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const owner = await newPerson(browser, '10.250.9.21');
    await owner.setViewportSize({ width: 390, height: 844 });
    await owner.addInitScript(() => window.localStorage.setItem('cookieConsent', 'accepted'));
    await signUpVerified(owner.request, 'Owen Owner');
    const place = await placeNamed(owner.request, 'Ludlow');
    const title = `Kuhn ${uniqueWord()} tedder`;
    const { id } = await postListing(owner.request, {
      category: 'equipment',
      title,
      price: 2100,
      location: place.label,
      place_id: place.id,
    });
    await photosReady(owner.request, id);
    const visitor = await newPerson(browser, '10.250.9.22');
    const [photo] = ((await (await visitor.request.get(`/api/listings/${id}`)).json()) as { data: { images: Array<{ url: string }> } }).data
      .images;
    expect((await visitor.request.get(photo!.url)).status()).toBe(200);
    // A member reports it: the report's inbox item carries the listing's moderation.
    await signUpVerified(visitor.request, 'Vic Visitor');
    const reported = await visitor.request.post('/api/reports', {
      headers: SITE,
      data: { target_kind: 'listing', target_id: id, reason: 'scam', details: 'The photos are from another advert.' },
    });
    expect(reported.status()).toBe(201);

    const staff = await staffPerson(browser, '10.250.9.23');
    const reason = 'The photos show a different machine from the one described.';
    expect((await staff.request.post(`/api/staff/listings/${id}/hide`, { headers: SITE, data: { reason } })).status()).toBe(201);
    expect((await visitor.request.get(photo!.url)).status()).toBe(404);

    // The owner still gets their own photo; My Listings shows why on the card, offers no Delete while the case is
    // open, and asks nothing per card (the case came with the page).
    expect((await owner.request.get(photo!.url)).status()).toBe(200);
    const perCard: string[] = [];
    owner.on('request', (request) => request.url().includes('/moderation') && perCard.push(request.url()));
    await owner.goto('/profile#listings');
    const card = owner.getByRole('listitem').filter({ hasText: title });
    await expect(card.getByTestId('hidden-reason')).toContainText(reason);
    await expect(card.getByRole('link', { name: 'See why and appeal' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Delete', exact: true })).toHaveCount(0);
    expect(perCard).toEqual([]);

    // The owner reads why, and appeals once from the listing's page.
    await owner.goto(`/listing/${id}`);
    const hidden = owner.getByTestId('listing-hidden');
    await expect(hidden.getByTestId('hidden-reason')).toHaveText(reason);
    await expect(owner.locator('[data-delete]')).toHaveCount(0);
    await hidden
      .getByLabel('Think this is a mistake? You can appeal once.')
      .fill('These are my own photos of this tedder, taken last week.');
    await hidden.getByRole('button', { name: 'Send appeal' }).click();
    await expect(hidden.getByTestId('appeal-state')).toHaveText(/Your appeal is with our team/);
    await expect(hidden.getByRole('button', { name: 'Send appeal' })).toHaveCount(0);
    await owner.screenshot({ path: join(SCREENSHOTS, 'hidden-listing-owner-phone.png'), fullPage: true });

    // On a phone, the report's item says the appeal decides the case and offers no "Close case" (the server
    // would refuse it while the appeal waits).
    await staff.setViewportSize({ width: 390, height: 844 });
    await inboxOf(staff, 'Reports');
    await staff.getByTestId('inbox-item').filter({ hasText: title }).first().click();
    const report = staff.getByTestId('inbox-detail');
    await expect(report.getByTestId('listing-status')).toHaveText('removed');
    await expect(report.getByTestId('appeal-pending')).toBeVisible();
    await expect(report.getByRole('button', { name: 'Close case' })).toHaveCount(0);
    // The reporter's long address wraps: nothing makes the page wider than the phone.
    expect(await staff.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await staff.screenshot({ path: join(SCREENSHOTS, 'staff-appealed-report-phone.png'), fullPage: true });
    await staff.setViewportSize({ width: 1280, height: 800 });

    await approveInInbox(staff, 'Appeals', title, 'Approved');
    await owner.goto(`/listing/${id}`);
    await expect(owner.getByTestId('listing-hidden')).toHaveCount(0);
    expect((await visitor.goto(`/listing/${id}`))?.status()).toBe(200);
  });

  test('a visitor sends feedback; staff find it by kind, category and rating, read it and reply by e-mail', async ({ browser }) => {
    test.setTimeout(90_000);
    const word = uniqueWord();
    const message = `Photo upload stops at 90% on the ${word} farm connection.`;
    const visitor = await newPerson(browser, '10.250.9.4');
    await visitor.goto('/feedback');
    const form = visitor.getByRole('form', { name: 'Feedback form' });
    await form.getByLabel('Name').fill('Cara Hogg');
    await form.getByLabel('Email').fill(`cara.${word}@example.co.uk`);
    await form.getByLabel('Category').selectOption({ label: 'Bug Report' });
    await form.getByRole('radio', { name: '2 of 5: Fair' }).check();
    await form.getByLabel('Message').fill(message);
    await form.getByRole('button', { name: 'Submit Feedback' }).click();
    await expect(visitor.getByTestId('toast').filter({ hasText: 'Feedback Submitted Successfully!' })).toBeVisible();

    const staff = await newPerson(browser, '10.250.9.5');
    const { email } = await signUpVerified(staff.request, 'Fern Staff');
    const [recoveryCode] = await turnOnTwoFactor(staff.request);
    await grantStaff(email);
    await signInAgain(staff.request, email, recoveryCode);
    await staff.goto('/staff');
    const filters = staff.getByRole('form', { name: 'Filters' });
    await filters.getByLabel('Kind').selectOption({ label: 'Feedback' });
    const category = filters.getByLabel('Category');
    await expect(category.locator('option')).toHaveText([
      'Any',
      'General Feedback',
      'Bug Report',
      'Feature Request',
      'User Experience',
      'Performance Issue',
      'Other',
    ]);
    await category.selectOption({ label: 'Bug Report' });
    await filters.getByLabel('Rating').selectOption('2');
    const item = staff.getByTestId('inbox-item').filter({ hasText: 'Cara Hogg' });
    await expect(item).toContainText('Feedback: Bug Report, rated 2/5');
    await filters.getByLabel('Rating').selectOption('5');
    await expect(item).toHaveCount(0);
    await filters.getByLabel('Rating').selectOption('2');
    await item.first().click();
    const detail = staff.getByTestId('inbox-detail');
    await expect(detail).toContainText(message);
    for (const text of ['Cara Hogg', `cara.${word}@example.co.uk`, 'Bug Report', '2 of 5']) await expect(detail).toContainText(text);
    await staff.screenshot({ path: join(SCREENSHOTS, 'staff-inbox-feedback-desktop.png'), fullPage: true });

    await detail.getByLabel(`Reply to cara.${word}@example.co.uk`).fill('Thank you, Cara: we have fixed the upload fault.');
    await detail.getByRole('button', { name: 'Send reply' }).click();
    await expect(staff.getByTestId('toast').filter({ hasText: 'Reply queued' })).toBeVisible();
    await expect
      .poll(async () => (await outboxMails()).filter((m) => m.to === `cara.${word}@example.co.uk`).map((m) => m.subject))
      .toEqual(['Re: Feedback: Bug Report, rated 2/5']);
    await expect(detail.getByTestId('audit-log')).toContainText('Fern Staff — inbox.reply feedback');
  });

  test('the queue dashboard shows a failed job with its error and retries it', async ({ page }) => {
    // Mail to the reserved .invalid domain is refused for good by the outbox, as an SMTP server would refuse it.
    const sent = await page.request.post('/api/contact', {
      headers: SITE,
      data: { name: 'Bounce Test', email: 'nobody@farm.invalid', subject: 'Bounce', message: 'This address cannot receive mail.' },
    });
    expect(sent.status()).toBe(201);

    const { email } = await signUpVerified(page.request, 'Quentin Queues');
    const [recoveryCode] = await turnOnTwoFactor(page.request);
    await grantStaff(email);
    await signInAgain(page.request, email, recoveryCode);
    await page.goto('/staff/queues');
    const job = page.getByTestId('failed-job').filter({ hasText: 'nobody@farm.invalid' });
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(job).toHaveCount(1, { timeout: 1_000 });
    }).toPass();
    await expect(job).toContainText('mail / contact.acknowledge-sender');
    await expect(job).toContainText('failed for good');
    await expect(job.getByTestId('job-attempts')).toHaveText('1');
    await job.getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Job retried' })).toBeVisible();
    // It ran again (and failed again: the address still does not exist).
    await expect(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click();
      await expect(job.getByTestId('job-attempts')).toHaveText('2', { timeout: 1_000 });
    }).toPass();
  });

  test('a deal through to a success story: hidden on the home page until staff approve it, then shown as its author chose', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const word = uniqueWord();
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'What our community says' })).toHaveCount(0);
    await expect(page.getByTestId('home-stories')).toBeHidden();

    // A real deal: the buyer asks, the seller answers, the seller marks it sold.
    const seller = await newPerson(browser, '10.250.9.11');
    await signUpVerified(seller.request, 'Owen Seller');
    const { id } = await postListing(seller.request, {
      title: `Ifor Williams ${word} trailer`,
      category: 'equipment',
      price: 2500,
      location: 'Taunton',
      place_id: (await placeNamed(seller.request, 'Taunton')).id,
    });
    const buyer = await newPerson(browser, '10.250.9.12');
    await signUpVerified(buyer.request, 'Bethan Buyer');
    await dealDone(buyer.request, seller.request, id);

    const story = `Bought the ${word} trailer after a proper look on Saturday; exactly as described and the seller helped load it.`;
    await buyer.goto('/success-stories');
    const share = buyer.getByRole('form', { name: 'Share your story' });
    await share.getByLabel('Your story').fill(story);
    await share.getByRole('radio', { name: 'My first name only' }).check();
    await share.getByRole('button', { name: 'Send my story' }).click();
    await expect(buyer.getByText('Waiting for our team')).toBeVisible();
    // Said as news, not as an error.
    const card = buyer.locator('[data-share-story]');
    await expect(card.getByRole('status')).toHaveText(/Thank you. Our team reads every story/);
    await expect(card.getByRole('alert')).toBeHidden();
    await page.goto('/');
    await expect(page.getByTestId('home-stories')).toBeHidden();
    await page.goto('/success-stories');
    await expect(page.getByTestId('stories-empty')).toContainText('No success stories yet');

    const staff = await staffPerson(browser, '10.250.9.13');
    await approveInInbox(staff, 'Stories', word, 'Approved');

    await page.goto('/');
    const shown = page.getByTestId('home-stories');
    await expect(shown).toContainText(story);
    await expect(shown).toContainText('Bethan');
    await expect(shown).not.toContainText('Bethan Buyer');
    await page.goto('/success-stories');
    await expect(page.getByTestId('stories-list')).toContainText(story);
  });

  test('a trader asks for a business check; staff approve it and the listing shows "Business verified" with the trader notice', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const word = uniqueWord();
    const trader = await newPerson(browser, '10.250.9.14');
    await signUpVerified(trader.request, 'Tomos Trader');
    const { id } = await postListing(trader.request, {
      title: `Kverneland ${word} plough`,
      category: 'equipment',
      price: 4200,
      location: 'Taunton',
      place_id: (await placeNamed(trader.request, 'Taunton')).id,
      seller_type: 'trade',
      business_name: `${word} Machinery Ltd`,
    });
    await trader.goto('/profile');
    const panel = trader.getByTestId('seller-panel');
    await panel.getByLabel('VAT number (optional)').fill('GB 999 9999 74');
    await panel.getByRole('button', { name: 'Save seller details' }).click();
    await expect(panel).toContainText('VAT number is not valid: please check the digits');
    await panel.getByLabel('VAT number (optional)').fill('GB 999 9999 73');
    await panel.getByRole('button', { name: 'Save seller details' }).click();
    await panel.getByRole('button', { name: 'Ask our team to verify my business' }).click();
    await expect(panel.getByTestId('business-check')).toContainText('Waiting for our team');

    await page.goto(`/listing/${id}`);
    const card = page.getByTestId('seller-card');
    await expect(card).toContainText(`Trade seller: ${word} Machinery Ltd`);
    await expect(card).not.toContainText('Business verified');
    await expect(card).toContainText('you have consumer rights');

    const staff = await staffPerson(browser, '10.250.9.15');
    await approveInInbox(staff, 'Business checks', `${word} Machinery Ltd`, 'Approved');
    await page.goto(`/listing/${id}`);
    await expect(page.getByTestId('seller-card')).toContainText(/✓ Business verified \d{1,2} \w{3} \d{4}/);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENSHOTS, 'trust-listing-phone.png'), fullPage: true });
  });

  test('"Show number": never in the page, signed-out visitors are sent to sign in, a signed-in member sees it', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    const seller = await newPerson(browser, '10.250.9.16');
    const { id, email } = await signUpVerified(seller.request, 'Phoebe Phone');
    expect(
      (await seller.request.put('/api/profile', { headers: SITE, data: { full_name: 'Phoebe Phone', phone: '07700 900456' } })).ok(),
    ).toBe(true);

    const html = await (await page.request.get(`/profile/${id}`)).text();
    expect(html).not.toContain('900456');
    expect(html).not.toContain(email);
    await page.goto(`/profile/${id}`);
    await page.getByRole('button', { name: 'Show number' }).click();
    await expect(page).toHaveURL(/\/signin\?redirect=/);

    await signUpVerified(page.request, 'Mared Member');
    await page.goto(`/profile/${id}`);
    await page.getByRole('button', { name: 'Show number' }).click();
    await expect(page.getByRole('link', { name: '07700 900456' })).toHaveAttribute('href', 'tel:07700900456');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(SCREENSHOTS, 'trust-profile-phone.png'), fullPage: true });
  });
});
