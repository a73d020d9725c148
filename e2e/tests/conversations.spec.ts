import { join } from 'node:path';
import { devices, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { baseURL } from '../playwright.config.js';
import { productDatabase } from './database.js';
import { expect, test } from './fixtures.js';
import { blockWebSockets, fastForwardToPolling } from './live-channel.js';
import { placeNamed, postListing, signUpVerified, SITE, uniqueWord } from './sellers.js';

const SCREENSHOTS = join(import.meta.dirname, '..', 'screenshots');
let clients = 0;
/** A browser of its own (cookies, sockets), signed up and signed in as `name`. */
async function person(browser: Browser, name: string): Promise<{ context: BrowserContext; page: Page; id: string }> {
  clients += 1;
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { 'x-forwarded-for': `10.251.${clients}.${(Date.now() % 250) + 1}` },
  });
  const page = await context.newPage();
  const { id } = await signUpVerified(page.request, name);
  return { context, page, id };
}

const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);
/** A day as the product writes dates: "3 Mar 2027". */
const gbDay = (offset: number) =>
  new Date(`${day(offset)}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const row = (page: Page, name: string) => page.getByTestId('conversation-row').filter({ hasText: name });

test.describe('conversations', () => {
  test('buyer and seller talk about a listing live: template, bell, read state and reply', async ({ browser }) => {
    const seller = await person(browser, 'Sam Seller');
    const buyer = await person(browser, 'Bill Buyer');
    const word = uniqueWord();
    const place = await placeNamed(seller.page.request, 'Taunton');
    const { id } = await postListing(seller.page.request, {
      category: 'equipment',
      title: `Kverneland ${word} plough`,
      price: 4200,
      location: place.label,
      place_id: place.id,
    });

    // The seller has Messages open, with nothing in it yet.
    await seller.page.goto('/messages');
    await expect(seller.page.getByText('No conversations yet')).toBeVisible();
    await expect(seller.page.getByText('Select a conversation')).toBeVisible();
    await expect(seller.page.getByTestId('messages-bell')).toBeVisible();
    await expect(seller.page.getByTestId('messages-bell-badge')).toHaveCount(0);

    // The buyer messages from the listing with a quick template.
    await buyer.page.goto(`/listing/${id}`);
    await buyer.page.getByRole('link', { name: 'Message Seller' }).click();
    const dialog = buyer.page.getByRole('dialog', { name: 'Message Seller' });
    await expect(dialog.getByRole('button')).toHaveText([
      'Still available?',
      'Make an offer',
      'More details',
      'Arrange a viewing',
      'Send Message',
      'Cancel',
    ]);
    await dialog.getByRole('button', { name: 'Still available?' }).click();
    await expect(dialog.getByLabel('Your message')).toHaveValue(`Hi, is "Kverneland ${word} plough" still available?`);
    await buyer.page.screenshot({ path: join(SCREENSHOTS, 'message-seller-dialog.png') });
    await dialog.getByRole('button', { name: 'Send Message' }).click();
    await expect(buyer.page.getByTestId('toast').filter({ hasText: 'Message Sent' })).toBeVisible();
    await expect(dialog).toBeHidden();

    // It appears on the seller's open page without a reload, with the badges up.
    await expect(row(seller.page, 'Bill Buyer')).toContainText(`Hi, is "Kverneland ${word} plough" still available?`);
    await expect(row(seller.page, 'Bill Buyer').getByTestId('conversation-unread')).toHaveText('1');
    await expect(seller.page.getByTestId('messages-bell-badge')).toHaveText('1');

    // The buyer follows the link to the conversation: the message is sent, not read yet.
    await buyer.page.getByRole('link', { name: 'View conversation' }).click();
    await expect(buyer.page).toHaveURL(/\/messages\?conversation=/);
    const buyerMessage = buyer.page.getByTestId('chat-message').filter({ hasText: 'still available?' });
    await expect(buyerMessage).toHaveAttribute('data-mine', 'true');
    await expect(buyerMessage.getByTestId('read-tick')).toHaveText(/Sent/);

    // The seller opens it: read on both sides, badges down.
    await row(seller.page, 'Bill Buyer').click();
    await expect(seller.page.getByTestId('chat-name')).toHaveText('Bill Buyer');
    await expect(seller.page.getByTestId('chat-message')).toHaveCount(1);
    await expect(seller.page.getByTestId('conversation-unread')).toHaveCount(0);
    await expect(seller.page.getByTestId('messages-bell-badge')).toHaveCount(0);
    await expect(buyerMessage.getByTestId('read-tick')).toHaveText(/Read/);

    // The seller replies; it arrives in the buyer's open chat and is read there, which the seller sees.
    const input = seller.page.getByPlaceholder('Type your message...');
    await expect(seller.page.getByTestId('chat-send')).toBeDisabled();
    await input.fill('Yes, it is. Come on Saturday.');
    await seller.page.getByTestId('chat-send').click();
    await expect(input).toHaveValue('');
    const reply = buyer.page.getByTestId('chat-message').filter({ hasText: 'Come on Saturday' });
    await expect(reply).toHaveAttribute('data-mine', 'false');
    await expect(seller.page.getByTestId('chat-message').filter({ hasText: 'Come on Saturday' }).getByTestId('read-tick')).toHaveText(
      /Read/,
    );
    await expect(buyer.page.getByTestId('messages-bell-badge')).toHaveCount(0);
    await expect(row(buyer.page, 'Sam Seller')).toContainText('Come on Saturday');
    await seller.page.evaluate(() => window.scrollTo(0, 0));
    await seller.page.screenshot({ path: join(SCREENSHOTS, 'messages-desktop.png') });

    // The search box filters by name or last message, ignoring case.
    const search = seller.page.getByPlaceholder('Search conversations...');
    await search.fill('BILL');
    await expect(row(seller.page, 'Bill Buyer')).toBeVisible();
    await search.fill('saturday');
    await expect(row(seller.page, 'Bill Buyer')).toBeVisible();
    await search.fill('nobody by that name');
    await expect(seller.page.getByText('No conversations found')).toBeVisible();

    await seller.context.close();
    await buyer.context.close();
  });

  test('a visitor is asked to sign in; the owner is offered their own actions instead', async ({ browser, page }) => {
    const seller = await person(browser, 'Olive Owner');
    const place = await placeNamed(seller.page.request, 'Exeter');
    const { id } = await postListing(seller.page.request, {
      category: 'equipment',
      title: `Round ${uniqueWord()} baler`,
      price: 9000,
      location: place.label,
      place_id: place.id,
    });
    await page.goto(`/listing/${id}`);
    await page.getByRole('link', { name: 'Message Seller' }).click();
    await expect(page.getByTestId('toast').filter({ hasText: 'Authentication Required' })).toContainText(
      'Please sign in to send messages.',
    );
    await expect(page.getByRole('link', { name: 'Sign In', exact: true }).last()).toHaveAttribute(
      'href',
      `/signin?redirect=%2Flisting%2F${id}`,
    );

    // The owner is not offered a message to themselves, but their own listing's actions.
    await seller.page.goto(`/listing/${id}`);
    await expect(seller.page.getByRole('main').getByRole('heading', { name: 'Manage your listing' })).toBeVisible();
    await expect(seller.page.getByRole('link', { name: 'Message Seller' })).toHaveCount(0);
    await seller.context.close();
  });

  test('a booking request on a rental, sent from /rent, is accepted by the owner and both cards change', async ({ browser }) => {
    const owner = await person(browser, 'Rita Renter');
    const renter = await person(browser, 'Gus Grazier');
    const title = `Grazing ${uniqueWord()} paddock`;
    const place = await placeNamed(owner.page.request, 'Minehead');
    const { id } = await postListing(owner.page.request, {
      type: 'rent',
      category: 'rentals',
      subcategory: 'land',
      title,
      price: 60,
      price_unit: 'per-week',
      location: place.label,
      place_id: place.id,
      attributes: { acres: 12, available_from: day(1), available_to: day(60) },
    });
    await owner.page.goto('/messages');

    await renter.page.goto('/rent');
    await renter.page.getByRole('link', { name: `Book Now: ${title}` }).click();
    await expect(renter.page).toHaveURL(new RegExp(`/listing/${id}\\?book=1$`));
    const dialog = renter.page.getByRole('dialog', { name: 'Book Now' });
    await expect(dialog.getByLabel('From')).toHaveAttribute('min', day(1));
    await expect(dialog.getByLabel('From')).toHaveAttribute('max', day(60));
    await dialog.getByLabel('From').fill(day(10));
    await dialog.getByLabel('To').fill(day(17));
    await dialog.getByLabel('Note (optional)').fill('For 40 ewes');
    await dialog.getByRole('button', { name: 'Send Request' }).click();
    await expect(renter.page.getByTestId('toast').filter({ hasText: 'Booking Request Sent' })).toBeVisible();
    await renter.page.getByRole('link', { name: 'View conversation' }).click();
    const renterCard = renter.page.getByTestId('booking-card');
    await expect(renterCard.getByTestId('booking-status')).toHaveText('Waiting for the owner’s answer');
    await expect(renterCard.getByRole('button', { name: 'Accept' })).toHaveCount(0);

    await row(owner.page, 'Gus Grazier').click();
    const ownerCard = owner.page.getByTestId('booking-card');
    await expect(ownerCard).toContainText('For 40 ewes');
    await ownerCard.getByRole('button', { name: 'Accept' }).click();
    await expect(ownerCard.getByTestId('booking-status')).toHaveText('Accepted');
    await expect(ownerCard.getByRole('button', { name: 'Accept' })).toHaveCount(0);
    await expect(renterCard.getByTestId('booking-status')).toHaveText('Accepted');

    await owner.context.close();
    await renter.context.close();
  });

  test('blocking stops the other side until unblocked; deleting hides a conversation for one side only', async ({ browser }) => {
    const seller = await person(browser, 'Ben Blocker');
    const buyer = await person(browser, 'Pat Pest');
    const place = await placeNamed(seller.page.request, 'Bridgwater');
    const { id } = await postListing(seller.page.request, {
      category: 'equipment',
      title: `Muck ${uniqueWord()} spreader`,
      price: 3100,
      location: place.label,
      place_id: place.id,
    });
    const started = await buyer.page.request.post('/api/messages/conversations', { headers: SITE, data: { listingId: id } });
    const conversationId = ((await started.json()) as { data: { id: string } }).data.id;
    await buyer.page.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content: 'Best price?' } });

    await seller.page.goto(`/messages?conversation=${conversationId}`);
    await expect(seller.page.getByTestId('chat-name')).toHaveText('Pat Pest');
    await seller.page.getByTestId('chat-menu').click();
    await seller.page.getByRole('menuitem', { name: 'Block User' }).click();
    await expect(seller.page.getByTestId('toast').filter({ hasText: 'User blocked' })).toBeVisible();
    await expect(seller.page.getByText('You blocked Pat Pest.')).toBeVisible();

    await buyer.page.goto(`/messages?conversation=${conversationId}`);
    await buyer.page.getByPlaceholder('Type your message...').fill('Hello?');
    await buyer.page.getByTestId('chat-send').click();
    await expect(buyer.page.getByTestId('toast').filter({ hasText: 'Failed to Send Message' })).toContainText(
      'You cannot send messages to this user.',
    );

    await seller.page.getByTestId('chat-menu').click();
    await seller.page.getByRole('menuitem', { name: 'Unblock User' }).click();
    await expect(seller.page.getByPlaceholder('Type your message...')).toBeVisible();
    await buyer.page.getByTestId('chat-send').click();
    await expect(seller.page.getByTestId('chat-message').filter({ hasText: 'Hello?' })).toBeVisible();

    await buyer.page.getByTestId('chat-menu').click();
    await expect(buyer.page.getByRole('menuitem', { name: 'View Profile' })).toHaveAttribute('href', `/profile/${seller.id}`);

    // A failed delete says so and keeps the conversation.
    const dialogs: string[] = [];
    buyer.page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await buyer.page.route(
      `**/api/messages/conversations/${conversationId}`,
      (route) => (route.request().method() === 'DELETE' ? route.fulfill({ status: 500, body: '' }) : route.continue()),
      { times: 1 },
    );
    await buyer.page.getByRole('menuitem', { name: 'Delete Conversation' }).click();
    await expect.poll(() => dialogs).toEqual(['Are you sure you want to delete this conversation?', 'Failed to delete conversation.']);
    await expect(buyer.page.getByTestId('chat-name')).toHaveText('Ben Blocker');

    // The buyer deletes it (confirming); the seller keeps it.
    await buyer.page.getByTestId('chat-menu').click();
    await buyer.page.getByRole('menuitem', { name: 'Delete Conversation' }).click();
    await expect(buyer.page.getByText('No conversations yet')).toBeVisible();
    await buyer.page.reload();
    await expect(buyer.page.getByText('No conversations yet')).toBeVisible();
    await seller.page.reload();
    await expect(row(seller.page, 'Pat Pest')).toBeVisible();

    await seller.context.close();
    await buyer.context.close();
  });

  test('a seller whose WebSockets are blocked still gets messages in the open chat, by polling', async ({ browser }) => {
    const seller = await person(browser, 'Wes Websocketless');
    const buyer = await person(browser, 'Bea Buyer');
    test.setTimeout(60_000);
    await blockWebSockets(seller.page);
    const place = await placeNamed(seller.page.request, 'Hereford');
    const { id } = await postListing(seller.page.request, {
      category: 'equipment',
      title: `Hay ${uniqueWord()} rake`,
      price: 650,
      location: place.label,
      place_id: place.id,
    });
    const started = await buyer.page.request.post('/api/messages/conversations', { headers: SITE, data: { listingId: id } });
    const conversationId = ((await started.json()) as { data: { id: string } }).data.id;
    const send = (content: string) => buyer.page.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content } });
    expect((await send('Is the rake still for sale?')).status()).toBe(201);

    await seller.page.goto(`/messages?conversation=${conversationId}`);
    await expect(seller.page.getByTestId('chat-message').filter({ hasText: 'still for sale' })).toBeVisible();
    await fastForwardToPolling(seller.page);

    expect((await send('I could collect it on Friday.')).status()).toBe(201);
    // One polling interval (5 s) and the round trip.
    await expect(seller.page.getByTestId('chat-message').filter({ hasText: 'collect it on Friday' })).toBeVisible({ timeout: 8_000 });
    await seller.context.close();
    await buyer.context.close();
  });

  test('the bell lists unread conversations; dismissing one marks it read on the server', async ({ browser }) => {
    const seller = await person(browser, 'Della Dairy');
    const buyer = await person(browser, 'Hugh Hopeful');
    const place = await placeNamed(seller.page.request, 'Taunton');
    const { id } = await postListing(seller.page.request, {
      category: 'livestock',
      title: `Twelve ${uniqueWord()} heifers`,
      price: 1200,
      location: place.label,
      place_id: place.id,
    });
    const started = await buyer.page.request.post('/api/messages/conversations', { headers: SITE, data: { listingId: id } });
    const conversationId = ((await started.json()) as { data: { id: string } }).data.id;
    for (const content of ['Are they TB tested?', 'And what breed is the bull?']) {
      await buyer.page.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content } });
    }

    await seller.page.goto('/');
    await expect(seller.page.getByTestId('messages-bell-badge')).toHaveText('2');
    await seller.page.getByTestId('messages-bell').click();
    const panel = seller.page.getByRole('region', { name: 'Messages' });
    await expect(panel.getByTestId('messages-bell-item')).toHaveCount(1);
    await expect(panel.getByTestId('messages-bell-item')).toContainText('Hugh Hopeful');
    await expect(panel.getByTestId('messages-bell-item')).toContainText('And what breed is the bull?');
    await panel.getByRole('button', { name: 'Dismiss messages from Hugh Hopeful' }).click();
    await expect(panel).toContainText('No new messages');
    await expect(seller.page.getByTestId('messages-bell-badge')).toHaveCount(0);
    await expect
      .poll(
        async () =>
          ((await (await seller.page.request.get(`/api/messages/unread/${seller.id}`)).json()) as { data: { total: number } }).data.total,
      )
      .toBe(0);

    // A new message raises it again, live.
    await buyer.page.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content: 'Still there?' } });
    await expect(seller.page.getByTestId('messages-bell-badge')).toHaveText('1');

    await seller.context.close();
    await buyer.context.close();
  });
});

test.describe('conversations on a phone', () => {
  test('one pane at a time, with a back button @phone', async ({ browser }) => {
    const seller = await person(browser, 'Phil Phone');
    const buyer = await person(browser, 'Mo Mobile');
    const place = await placeNamed(seller.page.request, 'York');
    const { id } = await postListing(seller.page.request, {
      category: 'equipment',
      title: `Topper ${uniqueWord()} mower`,
      price: 800,
      location: place.label,
      place_id: place.id,
    });
    const started = await buyer.page.request.post('/api/messages/conversations', { headers: SITE, data: { listingId: id } });
    const conversationId = ((await started.json()) as { data: { id: string } }).data.id;
    await buyer.page.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content: 'Does it cut wet grass?' } });
    await seller.context.close();

    const context = await browser.newContext({ ...devices['Pixel 7'], baseURL, storageState: await buyer.context.storageState() });
    const page = await context.newPage();
    await page.goto('/messages');
    await expect(page.getByRole('heading', { name: 'Messages', level: 1 })).toBeVisible();
    await expect(page.getByText('Select a conversation')).toBeHidden();
    await row(page, 'Phil Phone').click();
    await expect(page.getByTestId('chat-name')).toHaveText('Phil Phone');
    await expect(page.getByTestId('conversation-list')).toBeHidden();
    await page.getByRole('button', { name: 'Back to conversations' }).click();
    await expect(row(page, 'Phil Phone')).toBeVisible();
    await expect(page.getByTestId('chat')).toHaveCount(0);
    await context.close();
    await buyer.context.close();
  });
});

test.describe('the safety notice', () => {
  test('the recipient of a message with bank details sees a calm notice beside it; the sender does not', async ({ browser }) => {
    const seller = await person(browser, 'Sid Sortcode');
    const buyer = await person(browser, 'Bea Careful');
    const place = await placeNamed(seller.page.request, 'Exeter');
    const { id } = await postListing(seller.page.request, {
      category: 'equipment',
      title: `Massey ${uniqueWord()} baler`,
      price: 3500,
      location: place.label,
      place_id: place.id,
    });
    const started = await buyer.page.request.post('/api/messages/conversations', { headers: SITE, data: { listingId: id } });
    const conversationId = ((await started.json()) as { data: { id: string } }).data.id;
    await buyer.page.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content: 'Can I see it on Saturday?' } });
    const risky = 'A £300 deposit holds it: sort code 20-45-77, account 41234567';
    const sent = await seller.page.request.post('/api/messages/send', { headers: SITE, data: { conversationId, content: risky } });
    expect(sent.status()).toBe(201);

    const phone = { width: 390, height: 844 };
    for (const side of [buyer, seller]) {
      await side.page.setViewportSize(phone);
      // The screenshot shows the chat, not the cookie banner.
      await side.page.addInitScript(() => window.localStorage.setItem('cookieConsent', 'accepted'));
    }
    await seller.page.goto(`/messages?conversation=${conversationId}`);
    await expect(seller.page.getByTestId('chat-message').filter({ hasText: risky })).toHaveAttribute('data-mine', 'true');
    await expect(seller.page.getByTestId('safety-notice')).toHaveCount(0);

    await buyer.page.goto(`/messages?conversation=${conversationId}`);
    const message = buyer.page.getByTestId('chat-message').filter({ hasText: risky });
    await expect(message.getByTestId('safety-notice')).toHaveText(
      /Pay only after you have seen the animals or the machine; never pay a deposit to a stranger by bank transfer/,
    );
    await expect(buyer.page.getByTestId('safety-notice')).toHaveCount(1);
    await buyer.page.screenshot({ path: join(SCREENSHOTS, 'safety-notice-phone.png') });
    await seller.context.close();
    await buyer.context.close();
  });
});

/** A rental the owner posts, and a booking request for it from the renter: their conversation's id. */
async function bookingBetween(owner: { page: Page }, renter: { page: Page }): Promise<string> {
  const place = await placeNamed(owner.page.request, 'Minehead');
  const { id } = await postListing(owner.page.request, {
    type: 'rent',
    category: 'rentals',
    subcategory: 'land',
    title: `Grazing ${uniqueWord()} meadow`,
    price: 60,
    price_unit: 'per-week',
    location: place.label,
    place_id: place.id,
    attributes: { acres: 12, available_from: day(1), available_to: day(60) },
  });
  const booked = await renter.page.request.post('/api/messages/booking-requests', {
    headers: SITE,
    data: { listingId: id, from: day(10), to: day(17), note: 'For 40 ewes' },
  });
  expect(booked.status()).toBe(201);
  return ((await booked.json()) as { data: { conversation_id: string } }).data.conversation_id;
}

test.describe('a busy inbox', () => {
  test('an old conversation is reached by scrolling the list (Load more) and by searching; its booking preview reads "3 Mar 2027"', async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const owner = await person(browser, 'Bea Busy');
    const renter = await person(browser, 'Olive Oldest');
    const filler = await person(browser, 'Fred Filler');
    const oldest = await bookingBetween(owner, renter);
    // Forty newer conversations with someone else, stored as an operator would find them.
    const db = await productDatabase();
    try {
      await db.query(
        `insert into conversation (id, starter_id, owner_id, listing_id, title, created_at, updated_at)
         select gen_random_uuid(), $1, $2, gen_random_uuid(), 'Enquiry ' || n, now() - interval '1 day', now() + make_interval(secs => n)
           from generate_series(1, 40) as n`,
        [filler.id, owner.id],
      );
    } finally {
      await db.end();
    }

    const page = owner.page;
    await page.goto('/messages');
    await expect(row(page, 'Fred Filler')).toHaveCount(30);
    await expect(row(page, 'Olive Oldest')).toHaveCount(0);
    // Scrolled to its end, the list loads the next page.
    await page.getByTestId('conversation-list').evaluate((list) => list.scrollTo(0, list.scrollHeight));
    await expect(row(page, 'Olive Oldest')).toHaveCount(1);
    await expect(row(page, 'Fred Filler')).toHaveCount(40);
    await expect(page.getByTestId('conversations-more')).toHaveCount(0);
    await expect(row(page, 'Olive Oldest')).toContainText(`Booking request: ${gbDay(10)} to ${gbDay(17)}`);
    await expect(row(page, 'Olive Oldest')).not.toContainText(day(10));

    // The search box asks the server: it finds the conversation before any page holding it is loaded.
    await page.reload();
    await expect(row(page, 'Fred Filler')).toHaveCount(30);
    await page.getByPlaceholder('Search conversations...').fill('olive');
    await expect(row(page, 'Olive Oldest')).toHaveCount(1);
    await expect(page.getByTestId('conversation-row')).toHaveCount(1);
    await row(page, 'Olive Oldest').click();
    const card = page.getByTestId('booking-card');
    await expect(card).toContainText(`${gbDay(10)} to ${gbDay(17)}`);
    await page.getByPlaceholder('Search conversations...').fill('enquiry 7');
    await expect(page.getByTestId('conversation-row')).toHaveCount(1);

    // A link to it opens it, though it is on no page loaded.
    await page.goto(`/messages?conversation=${oldest}`);
    await expect(page.getByTestId('chat-name')).toHaveText('Olive Oldest');
    await owner.context.close();
    await renter.context.close();
    await filler.context.close();
  });
});

test.describe('the chat fits the screen', () => {
  for (const screen of [
    { name: 'a laptop, 1280 x 800', viewport: { width: 1280, height: 800 }, phone: false },
    { name: 'a phone, 390 x 844', viewport: { width: 390, height: 844 }, phone: true },
  ]) {
    test(`on ${screen.name} the composer and Send stay in view with a long conversation`, async ({ browser }) => {
      test.setTimeout(90_000);
      const seller = await person(browser, 'Lena Long');
      const buyer = await person(browser, 'Chatty Charlie');
      const conversationId = await bookingBetween(seller, buyer);
      const db = await productDatabase();
      try {
        // The booking request an hour ago, then sixty messages since.
        await db.query(`update message set created_at = now() - interval '1 hour' where conversation_id = $1`, [conversationId]);
        await db.query(
          `insert into message (id, conversation_id, sender_id, recipient_id, kind, content, read_at, created_at)
           select gen_random_uuid(), $1, case when n % 2 = 0 then $2::uuid else $3::uuid end, case when n % 2 = 0 then $3::uuid else $2::uuid end,
                  'text', 'Message ' || n || ': about the gate, the water trough and when the ewes can go in.', now(), now() - make_interval(secs => 100 - n)
             from generate_series(1, 60) as n`,
          [conversationId, buyer.id, seller.id],
        );
      } finally {
        await db.end();
      }
      const context = await browser.newContext({
        baseURL,
        viewport: screen.viewport,
        ...(screen.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
        storageState: await seller.context.storageState(),
      });
      const page = await context.newPage();
      // Someone who has answered the cookie question (the banner covers the foot of any page until then).
      await page.addInitScript(() => window.localStorage.setItem('cookieConsent', 'accepted'));
      await page.goto(`/messages?conversation=${conversationId}`);
      await expect(page.getByTestId('chat-message').last()).toContainText('Message 60:');
      await page.getByPlaceholder('Type your message...').fill('Gate code is 1234');

      for (const part of [page.getByPlaceholder('Type your message...'), page.getByTestId('chat-send'), page.getByTestId('chat-name')]) {
        const box = await part.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.y).toBeGreaterThanOrEqual(0);
        expect(box!.y + box!.height).toBeLessThanOrEqual(screen.viewport.height);
        expect(box!.x + box!.width).toBeLessThanOrEqual(screen.viewport.width);
      }
      // Nothing lies over Send: a tap at its middle reaches it.
      expect(
        await page.getByTestId('chat-send').evaluate((send) => {
          const box = send.getBoundingClientRect();
          return send.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
        }),
      ).toBe(true);
      // The newest message is in view above the composer, without scrolling the page.
      await expect(page.getByTestId('chat-message').last()).toBeInViewport();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      await page.screenshot({ path: join(SCREENSHOTS, `chat-fits-${screen.viewport.width}x${screen.viewport.height}.png`) });

      await page.getByTestId('chat-send').click();
      await expect(page.getByTestId('chat-message').last()).toContainText('Gate code is 1234');
      await context.close();
      await seller.context.close();
      await buyer.context.close();
    });
  }
});
