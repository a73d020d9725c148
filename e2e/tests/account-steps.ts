import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures.js';
import { MAIL_POLL_INTERVALS, outboxMails } from './outbox.js';

/** Steps of the account tests that several specs take. */

/** The API refuses a state-changing call with a session cookie unless it carries this (docs/accounts.md). */
export const CLIENT_HEADERS = { 'x-requested-with': 'fieldmarket' };

export const uniqueEmail = (what: string) => `${what}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.co.uk`;

/** The path and query of the first link to `path` in a mail the product sent to `to`. */
export async function mailedLink(to: string, path: string): Promise<string> {
  const pattern = new RegExp(`https?://[^\\s]+${path}\\?token=[\\w%-]+`);
  let link = '';
  await expect
    .poll(
      async () => {
        const mail = (await outboxMails()).find((m) => m.to === to && pattern.test(m.text));
        const found = mail?.text.match(pattern)?.[0];
        link = found ? `${new URL(found).pathname}${new URL(found).search}` : '';
        return link;
      },
      { intervals: MAIL_POLL_INTERVALS },
    )
    .not.toBe('');
  return link;
}

export async function signUpThroughApi(request: APIRequestContext, email: string, password: string, name = 'Jane Farmer') {
  const response = await request.post('/api/auth/signup', { data: { name, email, password }, headers: CLIENT_HEADERS });
  expect(response.status()).toBe(201);
}

/** Signs in through the API; pass `page.request` and the page's browser is signed in too (they share cookies). */
export async function signInThroughApi(request: APIRequestContext, email: string, password: string) {
  const response = await request.post('/api/auth/signin', { data: { email, password }, headers: CLIENT_HEADERS });
  expect(response.status()).toBe(200);
}

export async function signInWithForm(page: Page, email: string, password: string) {
  const form = page.getByRole('form', { name: 'Sign in' });
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Password', { exact: true }).fill(password);
  await form.getByRole('button', { name: 'Sign In' }).click();
}

export async function signOutFromHeader(page: Page) {
  await page.getByTestId('account-menu').click();
  await page.getByRole('banner').getByRole('button', { name: 'Sign Out', exact: true }).click();
  await expect(page.getByRole('link', { name: 'Sign In', exact: true })).toBeVisible();
  await expect(page.getByTestId('account-menu')).toHaveCount(0);
}
