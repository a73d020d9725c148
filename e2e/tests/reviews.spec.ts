import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { baseURL } from '../playwright.config.js';
import { productDatabase } from './database.js';
import { expect, test } from './fixtures.js';
import { dealDone, placeNamed, postListing, signUpVerified, SITE, uniqueWord } from './sellers.js';
import { becomeStaff } from './staff-people.js';

const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');

/** A person in a browser of their own, from their own address (each gets their own rate limits). */
async function person(browser: Browser, address: string, options: { phone?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': address },
    ...(options.phone ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } : {}),
  });
  return context.newPage();
}

/** Issue 23 §3: a review only after a real deal, written from the conversation, read on the public profile. */
test.describe('reviews', () => {
  test('a deal through to a review on the public profile, and the reply', async ({ page, browser }) => {
    test.setTimeout(120_000);
    const word = uniqueWord();
    const seller = await person(browser, '10.251.3.11');
    const { id: sellerId } = await signUpVerified(seller.request, 'Owen Seller');
    const { id: listingId } = await postListing(seller.request, {
      title: `Lleyn ${word} ewes`,
      category: 'equipment',
      price: 2500,
      location: 'Taunton',
      place_id: (await placeNamed(seller.request, 'Taunton')).id,
    });
    const buyer = await person(browser, '10.251.3.12');
    await signUpVerified(buyer.request, 'Bethan Buyer');
    const conversationId = await dealDone(buyer.request, seller.request, listingId, {
      ask: 'Could I see them on Saturday?',
      answer: 'Saturday at ten suits.',
    });

    // Sold, but the first message is minutes old: the conversation says when a review can be written.
    await buyer.goto(`/messages?conversation=${conversationId}`);
    await expect(buyer.getByTestId('review-reason')).toHaveText('You can review once 24 hours have passed since the first message here.');

    // A day passes (the conversation's messages are dated a day earlier, as the product would have stored them).
    const db = await productDatabase();
    try {
      await db.query(`update message set created_at = created_at - interval '25 hours' where conversation_id = $1`, [conversationId]);
    } finally {
      await db.end();
    }
    await buyer.reload();
    await buyer.getByTestId('review-start').click();
    await buyer.getByRole('radio', { name: '4 out of 5 stars' }).check();
    const text = `Collected the ${word} ewes on Saturday as agreed; healthy, well handled and the paperwork in order.`;
    await buyer.getByTestId('review-text').fill(text);
    await buyer.getByTestId('review-send').click();
    await expect(buyer.getByTestId('review-panel')).toContainText('You reviewed Owen Seller');
    await buyer.screenshot({ path: join(SCREENSHOTS, 'reviews-chat-desktop.png') });

    // Anyone reads it on the seller's public profile.
    await page.goto(`/profile/${sellerId}`);
    const review = page.getByTestId('review').filter({ hasText: text });
    await expect(review).toBeVisible();
    await expect(review.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
    await expect(review).toContainText('Bethan Buyer');
    await expect(review).toContainText(`About “Lleyn ${word} ewes”`);
    await expect(page.getByTestId('reviews-summary')).toContainText('1 review; the average shows from 3 reviews.');
    await expect(review.getByRole('button', { name: 'Send reply' })).toHaveCount(0);

    // The seller replies from their own profile.
    await seller.goto(`/profile/${sellerId}#reviews`);
    const mine = seller.getByTestId('review').filter({ hasText: text });
    await mine.getByLabel(/Reply to this review/).fill('Thank you, good to deal with you; the ewes settled in well I hope.');
    await mine.getByRole('button', { name: 'Send reply' }).click();
    await expect(mine.getByTestId('review-reply')).toContainText('Thank you, good to deal with you');

    await page.reload();
    await expect(page.getByTestId('review').filter({ hasText: text }).getByTestId('review-reply')).toContainText('Thank you, good to deal');

    // On a phone.
    const phone = await person(browser, '10.251.3.13', { phone: true });
    await phone.goto(`/profile/${sellerId}#reviews`);
    await expect(phone.getByTestId('review').filter({ hasText: text })).toBeVisible();
    const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await phone.screenshot({ path: join(SCREENSHOTS, 'reviews-profile-phone.png'), fullPage: true });
  });
  test("a seller's stars on cards and the listing page from 3 reviews; staff hide a reported one and restore it", async ({
    page,
    browser,
  }) => {
    test.setTimeout(180_000);
    const word = uniqueWord();
    const seller = await person(browser, '10.251.4.11');
    const { id: sellerId } = await signUpVerified(seller.request, 'Rhodri Seller');
    const place = await placeNamed(seller.request, 'Hereford');
    const listing = { category: 'equipment', price: 900, location: place.label, place_id: place.id };
    const { id: shownId } = await postListing(seller.request, { ...listing, title: `Hay ${word} bales` });
    const { id: soldId } = await postListing(seller.request, { ...listing, title: `Texel ${word} tups` });

    // Four buyers talk with the seller about the tups, which the seller then marks sold; a day passes.
    const buyers: Page[] = [];
    const conversations: string[] = [];
    for (const [i, name] of ['Aled Buyer', 'Bronwen Buyer', 'Carys Buyer', 'Dafydd Buyer'].entries()) {
      const buyer = await person(browser, `10.251.4.${21 + i}`);
      await signUpVerified(buyer.request, name);
      const started = await buyer.request.post('/api/messages/conversations', { headers: SITE, data: { listingId: soldId } });
      const conversationId = ((await started.json()) as { data: { id: string } }).data.id;
      await buyer.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content: 'Are the tups still for sale?' } });
      await seller.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content: 'Yes, come and see them.' } });
      buyers.push(buyer);
      conversations.push(conversationId);
    }
    expect((await seller.request.patch(`/api/listings/${soldId}/status`, { headers: SITE, data: { status: 'sold' } })).ok()).toBe(true);
    const db = await productDatabase();
    try {
      await db.query(`update message set created_at = created_at - interval '25 hours' where conversation_id = any($1)`, [conversations]);
    } finally {
      await db.end();
    }
    const texts = ['Strong, well grown tups, exactly as described.', 'Honest seller, the tups were fit and ready to work.'];
    texts.push('Easy collection and the tups settled in at once.', `Rude on the phone, I would not deal with ${word} again.`);
    const review = async (i: number, stars: number) => {
      const written = await buyers[i]!.request.post('/api/reviews', {
        headers: SITE,
        data: { conversation_id: conversations[i], stars, text: texts[i] },
      });
      expect(written.status()).toBe(201);
      return ((await written.json()) as { data: { id: string } }).data.id;
    };
    const card = page.locator('[data-browse-results] .listing-card').filter({ hasText: `Hay ${word} bales` });
    /** The seller's rating on the hay's browse card and on its page: `rating` spoken, or none (null). */
    const expectRating = async (rating: string | null) => {
      await page.goto(`/browse?q=${word}`);
      await expect(card).toBeVisible();
      if (rating === null) await expect(card.locator('.seller-rating')).toHaveCount(0);
      else await expect(card.locator('.seller-rating')).toHaveAttribute('title', rating);
      await page.goto(`/listing/${shownId}`);
      await expect(page.getByRole('heading', { name: `Hay ${word} bales`, level: 1 })).toBeVisible();
      if (rating === null) await expect(page.getByTestId('seller-rating')).toHaveCount(0);
      else await expect(page.getByTestId('seller-rating')).toContainText(rating);
    };

    // Two reviews: no stars yet on the card or the listing page.
    await review(0, 5);
    await review(1, 5);
    await expectRating(null);
    // The third: the average and count show.
    await review(2, 5);
    await expectRating('Rated 5.0 out of 5 from 3 reviews');
    const bad = await review(3, 1);
    await expectRating('Rated 4.0 out of 5 from 4 reviews');

    // The seller reports the fourth; staff hide it from the inbox.
    const reported = await seller.request.post('/api/reports', {
      headers: SITE,
      data: { target_kind: 'review', target_id: bad, reason: 'offensive', details: 'It insults me instead of describing the deal.' },
    });
    expect(reported.status()).toBe(201);
    const staff = await person(browser, '10.251.4.31');
    await becomeStaff(staff.request);
    await staff.goto('/staff');
    await staff
      .getByTestId('inbox-item')
      .filter({ hasText: 'about' })
      .filter({ hasText: `Texel ${word} tups` })
      .first()
      .click();
    const detail = staff.getByTestId('inbox-detail');
    await expect(detail).toContainText(texts[3]!);
    await expect(detail.getByTestId('review-status')).toHaveText('shown');
    await detail.getByLabel(/Reason/).fill('Reviews describe the deal; insults are not allowed.');
    await detail.getByRole('button', { name: 'Hide review' }).click();
    await expect(staff.getByTestId('toast').filter({ hasText: 'Review hidden' })).toBeVisible();
    await expect(detail.getByTestId('review-status')).toHaveText('hidden');

    // Gone from the profile and the average.
    await page.goto(`/profile/${sellerId}#reviews`);
    await expect(page.getByTestId('reviews-summary')).toContainText('5.0 out of 5 from 3 reviews');
    await expect(page.getByTestId('review')).toHaveCount(3);
    await expect(page.getByTestId('review').filter({ hasText: texts[3]! })).toHaveCount(0);
    await expectRating('Rated 5.0 out of 5 from 3 reviews');

    // Restored: back on the profile and in the average.
    await detail.getByRole('button', { name: 'Restore review' }).click();
    await expect(staff.getByTestId('toast').filter({ hasText: 'Review restored' })).toBeVisible();
    await expect(detail.getByTestId('review-status')).toHaveText('shown');
    await page.goto(`/profile/${sellerId}#reviews`);
    await expect(page.getByTestId('reviews-summary')).toContainText('4.0 out of 5 from 4 reviews');
    await expect(page.getByTestId('review').filter({ hasText: texts[3]! })).toBeVisible();
    await expectRating('Rated 4.0 out of 5 from 4 reviews');
  });
});
