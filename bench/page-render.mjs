// Server-rendered pages against the API call each makes, run as a whole program against the built product:
//   node bench/page-render.mjs --reuse DATABASE [rounds] [--seconds N] [--port 3990] [--only NAME] [--cpu-prof dir]
// DATABASE is one kept by bench/listings.mjs (a million listings: `node bench/listings.mjs --seed-only`); it is
// migrated at start. The product runs on it with its pages (frontend/dist) and the /api limit lifted.
// For each page (/browse, /browse with words, /rent, a category page, a listing, a seller's public profile) and the
// API call it makes for its content:
//   - server time: 200 requests one at a time, p50 and p95 of the time to the last byte (on loopback, so the
//     server's time plus well under a millisecond);
//   - throughput: wrk (1 thread, 50 connections, bench/wrk.mjs) for `rounds` rounds (default 3) of `seconds`
//     (default 10), page and API interleaved, the median of the 2xx answers per second and CPU per answer.
// Goals (issue 19 §2), each printed last, the run exiting 1 on a miss: a page's throughput at least half its API
// call's, and its server time p95 at most 25 ms. The machine's load average is printed beside the figures.
// --only NAME: that page alone (e.g. /profile/{id}); --cpu-prof dir: the product runs with node --cpu-prof and
// writes its profile into dir when it stops (bench/cpu-profile-summary.mjs reads it).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { ProductProcess } from './product-process.mjs';
import { requireWrk, wrk } from './wrk.mjs';

const require = createRequire(resolve('backend/package.json'));
const pg = require('pg');

const args = process.argv.slice(2);
const WITH_VALUE = ['--reuse', '--seconds', '--port', '--only', '--cpu-prof'];
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const database = option('--reuse');
if (!database) {
  console.error('usage: node bench/page-render.mjs --reuse DATABASE [rounds] [--seconds N] [--port 3990]');
  process.exit(1);
}
requireWrk('bench/page-render.mjs');
const rounds = Number(args.find((arg, i) => /^\d+$/.test(arg) && !WITH_VALUE.includes(args[i - 1])) ?? 3);
const seconds = Number(option('--seconds', 10));
const port = Number(option('--port', 3990));
const only = option('--only');
const cpuProfDir = option('--cpu-prof');
const SEQUENTIAL = 200;
const GOALS = { ratio: 0.5, p95Ms: 25 };
const BROWSER_HEADERS = ['Accept-Encoding: gzip, deflate, br'];

const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${database}`;
const scratch = mkdtempSync(join(tmpdir(), 'fm-bench-pages-render-'));
const origin = `http://127.0.0.1:${port}`;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];

/** A live listing with a photo and its seller, from the database: the listing and profile pages show real data. */
async function sampleListing() {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query(`select id, seller_id from listing where status = 'live' order by published_at desc limit 1`);
    if (!rows[0]) throw new Error(`${database} has no live listing`);
    return { listingId: rows[0].id, sellerId: rows[0].seller_id };
  } finally {
    await client.end();
  }
}

/** Times `count` requests one after the other (body read), in ms; every answer must be 2xx. */
async function sequential(path, count) {
  const times = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const response = await fetch(`${origin}${path}`, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    await response.arrayBuffer();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`${path} answered ${response.status}`);
  }
  return { p50: percentile(times, 50), p95: percentile(times, 95) };
}

const product = new ProductProcess();
try {
  const { listingId, sellerId } = await sampleListing();
  const all = [
    { name: '/browse', page: '/browse', api: '/api/listings' },
    { name: '/browse?q=tractor', page: '/browse?q=tractor', api: '/api/listings?q=tractor' },
    { name: '/rent', page: '/rent', api: '/api/listings?category=rentals' },
    { name: '/land', page: '/land', api: '/api/listings?category=land&limit=6' },
    { name: '/listing/{id}', page: `/listing/${listingId}`, api: `/api/listings/${listingId}` },
    { name: '/profile/{id}', page: `/profile/${sellerId}`, api: `/api/profile/public/${sellerId}` },
  ];
  const scenarios = only ? all.filter((scenario) => scenario.name === only) : all;
  if (scenarios.length === 0) throw new Error(`--only ${only}: no such page (${all.map((scenario) => scenario.name).join(', ')})`);
  await product.start({
    main: 'backend/dist/main.js',
    databaseUrl: url.toString(),
    port,
    dataDir: scratch,
    // Pages too; a quiet log (the access log would be the bench's biggest cost).
    env: { FRONTEND_DIR: './frontend/dist', LOG_LEVEL: 'warn', MIGRATE_ON_START: 'true' },
    nodeArgs: cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfDir)}`] : [],
  });
  const load = () => loadavg()[0].toFixed(1);
  console.log(`product on ${database}; load average ${load()}`);

  for (const scenario of scenarios) {
    // Warm: the first answers compile the page's code and fill the caches.
    await sequential(scenario.page, 20);
    await sequential(scenario.api, 20);
    scenario.pageTime = await sequential(scenario.page, SEQUENTIAL);
    scenario.apiTime = await sequential(scenario.api, SEQUENTIAL);
    scenario.pageRuns = [];
    scenario.apiRuns = [];
  }
  for (let round = 0; round < rounds; round++) {
    for (const scenario of scenarios) {
      for (const [path, runs] of [
        [scenario.page, scenario.pageRuns],
        [scenario.api, scenario.apiRuns],
      ]) {
        runs.push(wrk({ pid: product.pid, url: `${origin}${path}`, seconds, scratch, headers: BROWSER_HEADERS }));
      }
    }
  }

  const misses = [];
  const ms = (value) => `${value.toFixed(1)} ms`;
  console.log(`\npages against their API call, ${rounds} rounds of ${seconds} s (wrk -t1 -c50), load average now ${load()}`);
  console.log(
    `${'page'.padEnd(20)} ${'page/s'.padStart(8)} ${'API/s'.padStart(8)} ${'ratio'.padStart(6)}  ${'CPU/page'.padStart(9)} ${'CPU/API'.padStart(9)}  ${'page p50'.padStart(9)} ${'page p95'.padStart(9)} ${'API p95'.padStart(9)}`,
  );
  for (const scenario of scenarios) {
    const failures = [...scenario.pageRuns, ...scenario.apiRuns].flatMap((run) => run.failures);
    const pageRate = median(scenario.pageRuns.map((run) => run.rate));
    const apiRate = median(scenario.apiRuns.map((run) => run.rate));
    const ratio = pageRate / apiRate;
    console.log(
      [
        scenario.name.padEnd(20),
        pageRate.toFixed(0).padStart(8),
        apiRate.toFixed(0).padStart(8),
        ratio.toFixed(2).padStart(6),
        ' ' + `${(median(scenario.pageRuns.map((run) => run.cpuPerRequest)) / 1000).toFixed(2)} ms`.padStart(9),
        `${(median(scenario.apiRuns.map((run) => run.cpuPerRequest)) / 1000).toFixed(2)} ms`.padStart(9),
        ' ' + ms(scenario.pageTime.p50).padStart(9),
        ms(scenario.pageTime.p95).padStart(9),
        ms(scenario.apiTime.p95).padStart(9),
      ].join(' '),
    );
    if (failures.length > 0) misses.push(`${scenario.name}: ${[...new Set(failures)].join('; ')}`);
    if (ratio < GOALS.ratio) misses.push(`${scenario.name}: ${ratio.toFixed(2)}× its API call's throughput (goal ${GOALS.ratio}×)`);
    if (scenario.pageTime.p95 > GOALS.p95Ms)
      misses.push(`${scenario.name}: server time p95 ${ms(scenario.pageTime.p95)} (goal ${GOALS.p95Ms} ms)`);
  }
  console.log(`\nGoals: each page at least ${GOALS.ratio}× its API call's throughput, and server time p95 at most ${GOALS.p95Ms} ms.`);
  if (misses.length > 0) {
    console.log('Missed:');
    for (const miss of misses) console.log(`  ${miss}`);
    process.exitCode = 1;
  } else console.log('Every page meets its goals.');
} finally {
  await product.stop();
  rmSync(scratch, { recursive: true, force: true });
}
