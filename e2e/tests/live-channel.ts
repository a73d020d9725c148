import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';

/**
 * Blocks the page's WebSockets as a proxy that drops them would (each is closed as it opens, before
 * the handshake) and puts the page on a clock the test can move on. Call it before the page loads.
 * The returned function lets WebSockets through again (to the real server), as when the phone moves
 * to a network that allows them.
 */
export async function blockWebSockets(page: Page): Promise<() => void> {
  let blocked = true;
  await page.routeWebSocket('**/socket.io/**', (ws) => {
    if (blocked) ws.close();
    else ws.connectToServer();
  });
  await page.clock.install();
  return () => {
    blocked = false;
  };
}

/**
 * Moves the page's clock on a second at a time until the live dot says `status`, failing when that
 * takes more than `withinMs` of the page's time; after that the page's time runs as usual.
 */
async function fastForwardUntil(page: Page, status: string, withinMs: number): Promise<void> {
  const dot = page.getByTestId('live-dot');
  for (let moved = 0; (await dot.getAttribute('data-status')) !== status; moved += 1_000) {
    expect(moved, `page time before the live dot says ${status} (ms)`).toBeLessThanOrEqual(withinMs);
    await page.clock.runFor(1_000);
  }
}

/** With WebSockets blocked, the page polls within 10 s of loading (the socket keeps retrying behind). */
export const fastForwardToPolling = (page: Page) => fastForwardUntil(page, 'polling', 10_000);

/**
 * Once WebSockets are let through, the socket's next retry connects: retries wait at most 30 s plus
 * half again (jitter), and an attempt gives up after 10 s.
 */
export const fastForwardToRealtime = (page: Page) => fastForwardUntil(page, 'realtime', 55_000);
