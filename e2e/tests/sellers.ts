import { randomUUID } from 'node:crypto';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { MAIL_POLL_INTERVALS, outboxMails } from './outbox.js';
import { photoPng } from './photos.js';

/** The header the site's pages send on every call; the API refuses signed-in changes without it. */
export const SITE = { 'x-requested-with': 'fieldmarket' };

/** The password of everyone signUpVerified signs up. */
export const PASSWORD = 'Hay-bales-in-June';

/**
 * Signs a new person up through the API, confirms the address from the mailed link, and signs in.
 * Pass `page.request` and the page's browser is signed in too (they share cookies).
 */
export async function signUpVerified(request: APIRequestContext, name = 'Jane Farmer'): Promise<{ email: string; id: string }> {
  // Unique across the runner's parallel workers too: several tests sign up people of the same name.
  const email = `${name.toLowerCase().replace(/\W+/g, '.')}.${randomUUID().slice(0, 8)}.${Date.now()}@example.co.uk`;
  const password = PASSWORD;
  const signUp = await request.post('/api/auth/signup', { data: { name, email, password }, headers: SITE });
  if (signUp.status() !== 201) throw new Error(`sign-up failed: ${await signUp.text()}`);
  let token = '';
  await expect
    .poll(
      async () => {
        const mail = (await outboxMails()).find((m) => m.to === email);
        token = decodeURIComponent(mail?.text.match(/\/verify-email\?token=([\w%-]+)/)?.[1] ?? '');
        return token;
      },
      { message: `a confirmation mail to ${email}`, timeout: 20_000, intervals: MAIL_POLL_INTERVALS },
    )
    .not.toBe('');
  const verified = await request.post('/api/auth/verify-email', { data: { token }, headers: SITE });
  if (!verified.ok()) throw new Error(`verify failed: ${await verified.text()}`);
  const signIn = await request.post('/api/auth/signin', { data: { email, password }, headers: SITE });
  if (!signIn.ok()) throw new Error(`sign-in failed: ${await signIn.text()}`);
  const { id } = ((await signIn.json()) as { data: { user: { id: string } } }).data.user;
  return { email, id };
}

export interface Place {
  id: string;
  label: string;
}

export async function placeNamed(request: APIRequestContext, name: string): Promise<Place> {
  const response = await request.get(`/api/places?q=${encodeURIComponent(name)}`);
  const [place] = ((await response.json()) as { data: Place[] }).data;
  if (!place) throw new Error(`no place ${name}`);
  return place;
}

export const DESCRIPTION = 'Well looked after and ready to work this season; viewing welcome by appointment on the farm.';

interface UploadedImage {
  id: string;
  status: 'processing' | 'ready' | 'failed';
}

/**
 * Uploads real photos (PNGs drawn in memory) through POST /api/upload/multiple as the signed-in
 * seller, in one request; returns their ids in order. They are processing until the background job
 * has made their variants (see `photosReady`).
 */
export async function uploadPhotos(request: APIRequestContext, count = 1, size = { width: 320, height: 240 }): Promise<string[]> {
  const form = new FormData();
  for (let i = 0; i < count; i += 1)
    form.append(
      'images',
      new Blob([new Uint8Array(photoPng(size.width, size.height, i * 40))], { type: 'image/png' }),
      `photo-${i + 1}.png`,
    );
  const response = await request.post('/api/upload/multiple', { headers: SITE, multipart: form });
  if (response.status() !== 201) throw new Error(`upload failed: ${response.status()} ${await response.text()}`);
  return ((await response.json()) as { data: { images: UploadedImage[] } }).data.images.map((image) => image.id);
}

/** Waits, by asking the API, until every photo of the listing is ready (the job takes a moment per photo). */
export async function photosReady(request: APIRequestContext, listingId: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const body = (await (await request.get(`/api/listings/${listingId}`)).json()) as { data?: { images: UploadedImage[] } };
        const statuses = body.data?.images.map((image) => image.status) ?? [];
        return statuses.length > 0 && statuses.every((status) => status === 'ready');
      },
      { message: `the photos of listing ${listingId} are ready`, timeout: 30_000 },
    )
    .toBe(true);
}

/**
 * POST /api/listings as the signed-in seller, with one real photo uploaded first unless `images`
 * (ids of uploaded photos) is given.
 */
export async function postListing(request: APIRequestContext, listing: Record<string, unknown>): Promise<{ id: string }> {
  const images = listing['images'] ?? (await uploadPhotos(request));
  const response = await request.post('/api/listings', {
    headers: SITE,
    data: {
      type: 'sale',
      price_unit: 'total',
      vat: 'no-vat',
      description: DESCRIPTION,
      attributes: {},
      confirm_over_18: true,
      seller_type: 'private',
      ...listing,
      images,
    },
  });
  if (response.status() !== 201) throw new Error(`posting failed: ${await response.text()}`);
  return ((await response.json()) as { data: { id: string } }).data;
}

/** A made-up word nobody else's listing has, of letters only (the search's words are letters). */
export function uniqueWord(): string {
  const letters = 'bcdfghjklmnprstvz';
  const vowels = 'aeiou';
  let word = '';
  for (let i = 0; i < 5; i += 1) {
    word += letters[Math.floor(Math.random() * letters.length)];
    word += vowels[Math.floor(Math.random() * vowels.length)];
  }
  return word;
}

/** The wizard's questions before a seller's first listing: they are 18 or over, and sell privately. */
export async function declareFirstListing(page: Page): Promise<void> {
  await page.getByLabel('I confirm I am 18 or over').check();
  await page.getByRole('radio', { name: 'A private seller' }).check();
}

/** The wizard's price and place (Shrewsbury, picked from the list), then the Description step's text. */
export async function finishDetails(page: Page, price: string, description: string): Promise<void> {
  await page.getByLabel('Price (£)').fill(price);
  await page.getByLabel('Location').fill('Shrewsbury');
  await page
    .getByRole('option', { name: /^Shrewsbury/ })
    .first()
    .click();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('textbox', { name: 'Description' }).fill(description);
}

/**
 * A deal as issue 23 counts one: the buyer writes about the listing, the seller answers, and the seller
 * marks it sold. Returns the conversation's id.
 */
export async function dealDone(
  buyer: APIRequestContext,
  seller: APIRequestContext,
  listingId: string,
  words = { ask: 'Could I see it on Saturday?', answer: 'Saturday at ten suits.' },
): Promise<string> {
  const started = await buyer.post('/api/messages/conversations', { headers: SITE, data: { listingId } });
  const conversationId = ((await started.json()) as { data: { id: string } }).data.id;
  await buyer.post('/api/messages/send', { headers: SITE, data: { conversationId, content: words.ask } });
  await seller.post('/api/messages/send', { headers: SITE, data: { conversationId, content: words.answer } });
  expect((await seller.patch(`/api/listings/${listingId}/status`, { headers: SITE, data: { status: 'sold' } })).ok()).toBe(true);
  return conversationId;
}
