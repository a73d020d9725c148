import type { Page } from '@playwright/test';
import { expect } from './fixtures.js';

/**
 * Blocks the page's WebSockets as a proxy that drops them would (each is closed as it opens, before
 * the handshake) and puts the page on a clock the test can move on. Call it before the page loads.
 */
export async function blockWebSockets(page: Page): Promise<void> {
  await page.routeWebSocket('**/socket.io/**', (ws) => ws.close());
  await page.clock.install();
}

/**
 * With WebSockets blocked, each attempt fails at the 10 s availability timeout (SPEC §9), and the page
 * gives the socket up after the first attempt and three reconnections (2, 4 and 8 s apart): 54 s, then
 * it polls. Rather than wait them out, this moves the page's clock on a second at a time until the
 * live dot says polling, within 80 s of the page's time; after that the page's time runs as usual.
 */
export async function fastForwardToPolling(page: Page): Promise<void> {
  const dot = page.getByTestId('live-dot');
  for (let moved = 0; (await dot.getAttribute('data-status')) !== 'polling'; moved += 1_000) {
    expect(moved, 'page time before the live dot says polling (ms)').toBeLessThan(80_000);
    await page.clock.runFor(1_000);
  }
}
