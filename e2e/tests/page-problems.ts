import type { Page } from '@playwright/test';

declare global {
  interface Window {
    cspViolations: string[];
  }
}

/**
 * Collects console errors, uncaught exceptions and Content-Security-Policy violations of the page.
 * With `notFound`, Chromium's report of the document's own 404 status is expected: answering 404
 * is that page's job, not a fault of it.
 */
export async function watchForProblems(page: Page, { notFound = false } = {}): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const ownStatus = message.location().url === page.url() && message.text().includes('status of 404');
    if (!(notFound && ownStatus)) problems.push(`console: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline code'}`);
    });
  });
  return async () => [...problems, ...(await page.evaluate(() => window.cspViolations)).map((violation) => `CSP: ${violation}`)];
}
