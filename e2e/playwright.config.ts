import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// One data folder per run, shared with the worker processes through the environment.
process.env.FM_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'fieldmarket-e2e-'));
const port = Number(process.env.FM_E2E_PORT ?? 3310);
export const baseURL = `http://127.0.0.1:${port}`;
/** The product's embedded PostgreSQL (its password is in DATA_DIR/postgres.secret): tests read and lock rows as an operator could. */
export const embeddedPostgresPort = port + 50_000 > 65_535 ? 55_432 : port + 50_000;

export default defineConfig({
  testDir: 'tests',
  timeout: 30_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: true,
  // The test command asks for a JSON report too, to print one closing count over all suites.
  reporter: process.env.FM_E2E_JSON_REPORT ? [['list'], ['json', { outputFile: process.env.FM_E2E_JSON_REPORT }]] : [['list']],
  use: {
    baseURL,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
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
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], channel: undefined }, grepInvert: /@phone/ },
    { name: 'phone', use: { ...devices['Pixel 7'], channel: undefined }, grep: /@phone/ },
  ],
  // The product exactly as the README starts it, on its embedded defaults.
  webServer: {
    command: './fieldmarket start',
    cwd: resolve(import.meta.dirname, '..'),
    url: `${baseURL}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: 'ignore',
    stderr: 'pipe',
    gracefulShutdown: { signal: 'SIGTERM', timeout: 15_000 },
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: process.env.FM_E2E_DATA_DIR,
      EMBEDDED_PG_PORT: String(embeddedPostgresPort),
      LOG_LEVEL: 'warn',
      // The tests say which client they are (tests/fixtures.ts), as a reverse proxy would.
      TRUST_PROXY: '1',
    },
  },
});
