import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { browserPath, PRODUCT_START_TIMEOUT_MS, productsStartedUnawaited } from './playwright.config.js';

/**
 * Says which browser the tests run in, in the test command's closing notes, and waits for the products playwright.config.ts starts beside the others (Playwright itself waits only
 * for the last one), so that no test runs before its product answers.
 */
export default async function waitForProducts(): Promise<void> {
  if (process.env.FM_TEST_NOTES_DIR) {
    await writeFile(join(process.env.FM_TEST_NOTES_DIR, 'browser.note'), `The browser tests ran in ${browserPath}.`);
  }
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
