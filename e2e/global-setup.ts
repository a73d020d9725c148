import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { browserPath, PRODUCT_START_TIMEOUT_MS, productsStartedUnawaited } from './playwright.config.js';

/** Before the tests: say which browser they run in, and wait for every product to answer. */
export default async function globalSetup(): Promise<void> {
  await noteBrowser();
  await waitForProducts();
}

/** For the test command's closing notes (FM_TEST_NOTES_DIR, set by scripts/test-all.sh). */
async function noteBrowser(): Promise<void> {
  if (!process.env.FM_TEST_NOTES_DIR) return;
  await writeFile(join(process.env.FM_TEST_NOTES_DIR, 'browser.note'), `The browser tests ran in ${browserPath}.`);
}

/**
 * Waits for the products playwright.config.ts starts beside the others (Playwright itself waits only
 * for the last one), so that no test runs before its product answers.
 */
async function waitForProducts(): Promise<void> {
  const deadline = Date.now() + PRODUCT_START_TIMEOUT_MS;
  for (const product of productsStartedUnawaited) {
    const health = `${product.baseURL}/api/health`;
    for (;;) {
      const status = await fetch(health, { signal: AbortSignal.timeout(2_000) }).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) break;
      if (Date.now() > deadline) {
        throw new Error(`The product at ${product.baseURL} did not answer ${health} within ${PRODUCT_START_TIMEOUT_MS / 1000} s.`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
