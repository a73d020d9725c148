import { createHash } from 'node:crypto';
import { test as base } from '@playwright/test';

export { expect } from '@playwright/test';

/**
 * Each test is a client of its own: the product runs behind one trusted hop (TRUST_PROXY=1, as
 * behind a reverse proxy) and every request of a test says, in X-Forwarded-For, that it comes from
 * an address derived from the test's id. Per-client limits (contact, the API's) then never carry
 * over from one test to the next, whatever order the tests run in.
 */
export const test = base.extend({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    const digest = createHash('sha256').update(`${testInfo.testId}:${testInfo.repeatEachIndex}:${testInfo.retry}`).digest();
    const address = `10.${digest[0]}.${digest[1]}.${((digest[2] ?? 0) % 254) + 1}`;
    await use({ ...extraHTTPHeaders, 'x-forwarded-for': address });
  },
});
