import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures.js';
import { blockWebSockets, fastForwardToPolling, fastForwardToRealtime } from './live-channel.js';
import { placeNamed, postListing, signUpVerified, SITE, uniqueWord } from './sellers.js';

/** A seller in a browser of their own posts a listing in `category`. */
async function postAsAnotherUser(request: APIRequestContext, category: string, title: string): Promise<string> {
  await signUpVerified(request, 'Sam Seller');
  const taunton = await placeNamed(request, 'Taunton');
  const { id } = await postListing(request, {
    category,
    title,
    price: 12500,
    location: taunton.label,
    place_id: taunton.id,
    attributes: category === 'land' ? { acres: 12 } : {},
  });
  return id;
}

const liveDot = (page: Page) => page.getByTestId('live-dot');
const badge = (page: Page) => page.getByTestId('notifications-badge');

test.describe('notifications', () => {
  // Three tests here count every listing posted in a followed category while they run: they run on a
  // product of their own (@own-product, playwright.config.ts), where no other test posts.
  test('a follower of a category sees the badge rise live when someone posts there, opens the bell and deletes one @own-product', async ({
    page,
    browser,
  }) => {
    await signUpVerified(page.request, 'Fran Follower');
    await page.goto('/land');
    await page.getByRole('button', { name: 'Follow Land' }).click();
    await expect(page.getByRole('button', { name: 'Following Land' })).toHaveAttribute('aria-pressed', 'true');

    await page.goto('/browse');
    await expect(liveDot(page)).toHaveAttribute('data-status', 'realtime');
    await expect(liveDot(page)).toHaveAccessibleName('Live updates: connected (real-time)');
    await expect(badge(page)).toHaveCount(0);

    const seller = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': '10.200.1.7' },
    });
    const title = `Grazing ${uniqueWord()} near Taunton`;
    try {
      await postAsAnotherUser(seller.request, 'land', title);
    } finally {
      await seller.close();
    }
    // Live, without a reload.
    await expect(badge(page)).toHaveText('1');

    await page.getByTestId('notifications-bell').click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    await expect(panel.getByRole('heading', { name: 'Notifications' })).toBeVisible();
    const item = panel.getByTestId('notification').filter({ hasText: title });
    await expect(item).toContainText('New Listing Available');
    // Opening the bell marks nothing read; the item's own Mark read does, on the server too.
    await expect(badge(page)).toHaveText('1');
    await item.getByRole('button', { name: 'Mark read' }).click();
    await expect(item.getByRole('button', { name: 'Mark read' })).toHaveCount(0);
    await expect(badge(page)).toHaveCount(0);
    await expect
      .poll(
        async () => ((await (await page.request.get('/api/notifications')).json()) as { data: { unread_count: number } }).data.unread_count,
      )
      .toBe(0);

    await item.getByRole('button', { name: /^Delete notification/ }).click();
    await expect(panel.getByText('No notifications yet')).toBeVisible();
    await page.reload();
    await page.getByTestId('notifications-bell').click();
    await expect(page.getByRole('region', { name: 'Notifications' }).getByText('No notifications yet')).toBeVisible();
  });

  test('each notification is read on its own: opening one, or its Mark read; Mark all read does the rest @own-product', async ({
    page,
    browser,
  }) => {
    await signUpVerified(page.request, 'Nina Notified');
    await page.request.post('/api/follows/categories/land', { headers: SITE });
    const seller = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': '10.200.1.8' },
    });
    const titles = [`Grazing ${uniqueWord()} by the river`, `Grazing ${uniqueWord()} on the hill`, `Grazing ${uniqueWord()} in the vale`];
    try {
      await postAsAnotherUser(seller.request, 'land', titles[0] as string);
      for (const title of titles.slice(1)) {
        const taunton = await placeNamed(seller.request, 'Taunton');
        await postListing(seller.request, {
          category: 'land',
          title,
          price: 900,
          location: taunton.label,
          place_id: taunton.id,
          attributes: { acres: 5 },
        });
      }
    } finally {
      await seller.close();
    }
    const unreadOnServer = async () =>
      ((await (await page.request.get('/api/notifications')).json()) as { data: { unread_count: number } }).data.unread_count;
    await expect.poll(unreadOnServer).toBe(3);

    await page.goto('/browse');
    await expect(badge(page)).toHaveText('3');
    await page.getByTestId('notifications-bell').click();
    const panel = page.getByRole('region', { name: 'Notifications' });
    const item = (n: number) => panel.getByTestId('notification').filter({ hasText: titles[n] as string });
    await expect(panel.getByTestId('notification')).toHaveCount(3);
    await expect(badge(page)).toHaveText('3');

    // Opening one (a click on its text) reads that one only.
    await item(0).getByTestId('notification-open').click();
    await expect(badge(page)).toHaveText('2');
    await expect(item(0).getByRole('button', { name: 'Mark read' })).toHaveCount(0);
    await expect(item(1).getByRole('button', { name: 'Mark read' })).toBeVisible();
    // Its own Mark read reads another.
    await item(1).getByRole('button', { name: 'Mark read' }).click();
    await expect(badge(page)).toHaveText('1');
    await expect.poll(unreadOnServer).toBe(1);

    // Closing and opening again changes nothing; after a reload the server's state shows.
    await page.reload();
    await expect(badge(page)).toHaveText('1');
    await page.getByTestId('notifications-bell').click();
    await expect(item(2).getByRole('button', { name: 'Mark read' })).toBeVisible();
    await expect(item(0).getByRole('button', { name: 'Mark read' })).toHaveCount(0);
    await panel.getByRole('button', { name: 'Mark all read' }).click();
    await expect(badge(page)).toHaveCount(0);
    await expect.poll(unreadOnServer).toBe(0);
  });

  test('the developer page shows the connection type and the round trip, and its Test Badge raises the badge', async ({ page }) => {
    await signUpVerified(page.request, 'Dev Tester');
    await page.goto('/realtime-demo');
    await expect(page.getByTestId('connection-type')).toHaveText(/realtime/);
    await expect(page.getByTestId('latency')).toHaveText(/^\d+ ms$/);
    await page.getByRole('button', { name: 'Test Badge' }).click();
    await expect(badge(page)).toHaveText('1');
  });

  test('a visitor gets a link to sign in instead of the bell, and no live channel', async ({ page }) => {
    const sockets: string[] = [];
    page.on('websocket', (socket) => sockets.push(socket.url()));
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Notifications: sign in to see yours' })).toHaveAttribute('href', '/signin');
    await expect(page.getByTestId('notifications-bell')).toHaveCount(0);
    await page.goto('/dev');
    await expect(page.getByText('The live channel opens for signed-in users only.')).toBeVisible();
    expect(sockets).toEqual([]);
  });

  test('with WebSockets blocked, the page polls within seconds and events still arrive; when they come back it returns to real time, each event once @own-product', async ({
    page,
    browser,
  }) => {
    test.setTimeout(60_000);
    const letWebSocketsThrough = await blockWebSockets(page);
    await signUpVerified(page.request, 'Polly Poller');
    const follow = await page.request.post('/api/follows/categories/equipment', { headers: SITE });
    expect(follow.ok()).toBe(true);

    await page.goto('/realtime');
    await fastForwardToPolling(page);
    await expect(liveDot(page)).toHaveAttribute('data-status', 'polling');
    await expect(liveDot(page)).toHaveAccessibleName('Live updates: checking every 5 seconds (real-time unavailable)');
    await expect(page.getByTestId('connection-type')).toHaveText(/polling/);

    const seller = await browser.newContext({
      baseURL: test.info().project.use.baseURL,
      extraHTTPHeaders: { 'x-forwarded-for': '10.200.2.9' },
    });
    try {
      const byPolling = `Tedder ${uniqueWord()} four rotor`;
      await postAsAnotherUser(seller.request, 'equipment', byPolling);
      // One polling interval (5 s) and the subscriber's moment.
      await expect(badge(page)).toHaveText('1', { timeout: 8_000 });

      // The socket kept retrying behind the polling: once WebSockets pass, it connects and catches up
      // (the event polling delivered is not delivered again), and the next event comes over it.
      letWebSocketsThrough();
      await fastForwardToRealtime(page);
      const overSocket = `Rake ${uniqueWord()} twin rotor`;
      await postListing(seller.request, {
        category: 'equipment',
        title: overSocket,
        price: 8000,
        location: (await placeNamed(seller.request, 'Taunton')).label,
      });
      await expect(badge(page)).toHaveText('2');
      await page.getByTestId('notifications-bell').click();
      const items = page.getByRole('region', { name: 'Notifications' }).getByTestId('notification');
      await expect(items).toHaveCount(2);
      await expect(items.filter({ hasText: byPolling })).toHaveCount(1);
      await expect(items.filter({ hasText: overSocket })).toHaveCount(1);
    } finally {
      await seller.close();
    }
  });
});
