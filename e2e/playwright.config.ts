import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// One data folder per product instance and run, shared with the worker processes through the environment.
process.env.FM_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'fieldmarket-e2e-'));
process.env.FM_E2E_OWN_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'fieldmarket-e2e-own-'));
const port = Number(process.env.FM_E2E_PORT ?? 3310);
/**
 * The embedded PostgreSQL of the product on `port` (its password is in DATA_DIR/postgres.secret): below Linux's
 * ephemeral ports (32768-60999), which the jest suite running beside takes for its own servers and connections; one
 * of them held 53310 once as the product started.
 */
const postgresPortFor = (port: number) => (port + 20_000 < 32_768 ? port + 20_000 : port - 1_000);

/** What a test needs to reach a product instance from outside its HTTP API (tests/product.ts). */
export interface ProductInstance {
  baseURL: string;
  dataDir: string;
  embeddedPostgresPort: number;
  /** Where the instance's Google sign-in goes: a local OAuth server the Google tests start there; none when Google is not configured. */
  googleURL?: string;
}

/** The product most tests share. */
const shared: ProductInstance = {
  baseURL: `http://127.0.0.1:${port}`,
  dataDir: process.env.FM_E2E_DATA_DIR,
  embeddedPostgresPort: postgresPortFor(port),
};
/**
 * A second product for the tests tagged @own-product, which run on it one at a time: tests that
 * count what happens across the whole product (every listing posted in a followed category, the
 * newest listings on the home page), where no other test posts anything; and the Google sign-in
 * tests, for which it has Google configured (the shared one has not).
 */
const own: ProductInstance = {
  baseURL: `http://127.0.0.1:${port + 1}`,
  dataDir: process.env.FM_E2E_OWN_DATA_DIR,
  embeddedPostgresPort: postgresPortFor(port + 1),
  googleURL: `http://127.0.0.1:${port + 2}`,
};
export const baseURL = shared.baseURL;
/** Where the products look postcodes up: a postcodes.io stand-in the postcode tests start there (never the public service). */
export const postcodesURL = `http://127.0.0.1:${port + 3}`;

/** How long a product may take to start (a first run builds it, and each start creates its embedded database). */
export const PRODUCT_START_TIMEOUT_MS = 240_000;

/**
 * The product exactly as the README starts it, on its embedded defaults. `awaited: false` starts it
 * without waiting for it (Playwright waits for each server before starting the next): the next one
 * starts beside it, and global-setup.ts waits for it to answer before the tests.
 */
function productServer(product: ProductInstance, { awaited }: { awaited: boolean }) {
  const { port } = new URL(product.baseURL);
  return {
    command: './fieldmarket start',
    cwd: resolve(import.meta.dirname, '..'),
    ...(awaited && { url: `${product.baseURL}/api/health` }),
    timeout: PRODUCT_START_TIMEOUT_MS,
    reuseExistingServer: false,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    gracefulShutdown: { signal: 'SIGTERM' as const, timeout: 15_000 },
    env: {
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: product.dataDir,
      EMBEDDED_PG_PORT: String(product.embeddedPostgresPort),
      LOG_LEVEL: 'warn',
      // The tests say which client they are (tests/fixtures.ts), as a reverse proxy would.
      TRUST_PROXY: '1',
      POSTCODES_API_URL: postcodesURL,
      // The digest test waits for the digest job's next look; each minute, it would wait 30 s on average.
      DIGEST_CHECK_SECONDS: '2',
      ...(product.googleURL && {
        PUBLIC_URL: product.baseURL,
        GOOGLE_CLIENT_ID: 'fieldmarket-e2e.apps.googleusercontent.com',
        GOOGLE_CLIENT_SECRET: 'e2e-client-secret',
        GOOGLE_AUTHORIZATION_URL: `${product.googleURL}/authorize`,
        GOOGLE_TOKEN_URL: `${product.googleURL}/token`,
        GOOGLE_USERINFO_URL: `${product.googleURL}/userinfo`,
      }),
    },
  };
}

/**
 * The browser: `CHROMIUM_PATH`, else Debian's headless shell (package chromium-headless-shell, the same engine without
 * the desktop browser around it, which Playwright itself runs for headless tests), else Debian's full Chromium. On two
 * cores the full browser in headless mode took most of the CPU of a browser test run: the suite took 5.3 min in it and
 * 3.6 min in the shell (27 November, nothing else running).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
// With neither installed, Playwright's error names the shell, which is what to install.
export const browserPath =
  process.env.CHROMIUM_PATH ?? [HEADLESS_SHELL, '/usr/bin/chromium'].find((path) => existsSync(path)) ?? HEADLESS_SHELL;

export default defineConfig({
  testDir: 'tests',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  // Every test is its own people, listings and client address, so tests run in any order, two at
  // a time: a browser, the product and the runner keep the machine's two cores busy without crowding them.
  fullyParallel: true,
  workers: Number(process.env.FM_E2E_WORKERS ?? 2),
  retries: 0,
  forbidOnly: true,
  // The test command asks for a JSON report too, to print one closing count over all suites.
  reporter: process.env.FM_E2E_JSON_REPORT ? [['list'], ['json', { outputFile: process.env.FM_E2E_JSON_REPORT }]] : [['list']],
  use: {
    baseURL,
    // No trace by default: recording one (a DOM snapshot around every action) cost the browser about 40% more CPU per
    // page, for every passing test too, and the test command's output never shows it. To keep the traces of the tests
    // that fail: `npx playwright test --trace retain-on-failure`.
    trace: 'off',
    launchOptions: {
      executablePath: browserPath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // Each test runs in one project only: @phone tests on the phone, @own-product tests on their own product.
  projects: [
    // First, so its tests (one at a time) start beside the others instead of running alone at the end.
    {
      name: 'own-product',
      use: { ...devices['Desktop Chrome'], channel: undefined, baseURL: own.baseURL },
      grep: /@own-product/,
      metadata: own,
      workers: 1,
    },
    {
      name: 'desktop',
      use: { ...devices['Desktop Chrome'], channel: undefined },
      grepInvert: [/@phone/, /@own-product/],
      metadata: shared,
    },
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined }, grep: /@phone/, metadata: shared },
  ],
  // Started side by side (./fieldmarket builds once when two start together and the sources changed): the second
  // product's start is not awaited here but by global-setup.ts.
  webServer: [productServer(own, { awaited: false }), productServer(shared, { awaited: true })],
  globalSetup: './global-setup.ts',
});

/** The products the webServer entries above start without waiting for them (global-setup.ts waits). */
export const productsStartedUnawaited = [own];
