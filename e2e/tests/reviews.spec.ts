import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { baseURL } from '../playwright.config.js';
import { productDatabase } from './database.js';
import { expect, test } from './fixtures.js';
import { dealDone, placeNamed, postListing, signUpVerified, uniqueWord } from './sellers.js';

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
});
