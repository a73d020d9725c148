// Page-weight benchmark, run as a whole program against the built product:
//   node bench/pages.mjs [runs] [--weight-only] [--content]
// Starts the product on its embedded defaults (own port and data folder) and prints, per page
// (`/`, `/contact`, the account pages, the not-found page, and the listings pages: /browse, a listing,
// /post-listing, /rent, /livestock, /categories; with --content the content pages instead: /about,
// /support, /blog and every article, the policies, /roadmap, /sell and the rest):
//   - the JavaScript a visitor downloads on load: every script the HTML loads, islands' component
//     and renderer modules, and their static imports, each counted once, as the bytes on the wire
//     with Accept-Encoding gzip and br, and whether React's runtime is among them; and the same
//     with everything reachable by import() too (what a signed-in visitor's header may load);
//   - the HTML as sent raw, with br and with gzip;
//   - when /usr/bin/chromium exists, Lighthouse mobile scores as medians of `runs` (default 3);
//   - when wrk is installed, requests per second of `/` with Accept-Encoding br and without
//     compression, medians of `runs` runs of 10 s with 50 connections (not with --content).
// With --content it also checks the content pages' budget (no React and at most 15 kB of gzipped
// JavaScript on load,
// Lighthouse performance 98 or more and accessibility 100) and exits with 1 when a page misses it.
// FM_BENCH_PORT chooses the port (default 3920).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 3);
const weightOnly = process.argv.includes('--weight-only');
const contentPages = process.argv.includes('--content');
const port = Number(process.env.FM_BENCH_PORT ?? 3920);
const origin = `http://127.0.0.1:${port}`;
const CHROMIUM = '/usr/bin/chromium';
const APP_PAGES = [
  { name: '/', path: '/' },
  { name: '/contact', path: '/contact' },
  { name: '/signin', path: '/signin' },
  { name: '/signup', path: '/signup' },
  // A visitor is sent on to /signin by the page's script; the weight is what the page loads first.
  { name: '/profile', path: '/profile' },
  { name: 'not found', path: '/no-such-page' },
  { name: '/browse', path: '/browse' },
  // An unknown id: the page answers Listing Not Found (404) with the same scripts as a listing.
  { name: '/listing/x', path: '/listing/x' },
  // Signed-in only: the hint cookie lets the page render instead of redirecting to sign in.
  { name: '/post-list.', path: '/post-listing', cookie: 'fm_signed_in=1' },
  { name: '/rent', path: '/rent' },
  { name: '/livestock', path: '/livestock' },
  { name: '/categories', path: '/categories' },
];
const ARTICLES = readdirSync(new URL('../frontend/src/content/blog/', import.meta.url))
  .filter((file) => file.endsWith('.md'))
  .map((file) => file.replace(/\.md$/, ''));
const CONTENT_PAGES = [
  ...['/about', '/support', '/blog', '/terms', '/privacy', '/community-guidelines', '/roadmap', '/success-stories', '/local-seo'].map(
    (path) => ({ name: path, path }),
  ),
  { name: '/coming-soon', path: '/coming-soon' },
  { name: '/sell', path: '/sell' },
  ...ARTICLES.map((slug) => ({ name: `/blog/${slug.slice(0, 14)}`, path: `/blog/${slug}` })),
];
const PAGES = contentPages ? CONTENT_PAGES : APP_PAGES;
/** The content pages' budget (issue: visitors' static pages). */
const BUDGET = { jsGzipBytes: 15 * 1024, performance: 98, accessibility: 100 };
const overBudget = [];
const NAME_WIDTH = contentPages ? 21 : 11;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** GET as a client would, without decoding: status, headers and the body bytes as sent. */
function get(path, encoding, cookie) {
  return new Promise((resolve, reject) => {
    const headers = { ...(encoding ? { 'accept-encoding': encoding } : {}), ...(cookie ? { cookie } : {}) };
    request(`${origin}${path}`, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function startProduct() {
  const dataDir = mkdtempSync(join(tmpdir(), 'fm-bench-pages-'));
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    EMBEDDED_PG_PORT: String(port + 51_000 > 65_535 ? 54_920 : port + 51_000),
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = spawn(process.execPath, ['backend/dist/main.js'], { env, stdio: 'ignore' });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the product exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${origin}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  };
}

/** Script URLs named by the HTML: script src, module preloads and the islands' modules. */
function scriptsOf(html) {
  const urls = new Set();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g)) urls.add(match[1]);
  for (const match of html.matchAll(/\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)) urls.add(match[1]);
  return urls;
}

/**
 * Modules a built script imports: statically (loaded with it), and with import() (the minifier
 * may quote with backticks) together with the chunks Vite preloads for dynamic imports (its
 * __vite__mapDeps list, whose paths are relative to the site root), loaded only when that import
 * runs (for example the signed-in header's bells).
 */
function importsOf(code, scriptPath) {
  const resolve = (url, base) => new URL(url, base).pathname;
  const staticImports = new Set();
  const dynamicImports = new Set();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'`]([^"'`]+\.m?js)["'`]/g)) {
    staticImports.add(resolve(match[1], `${origin}${scriptPath}`));
  }
  for (const match of code.matchAll(/\bimport\s*\(\s*["'`]([^"'`]+\.m?js)["'`]/g))
    dynamicImports.add(resolve(match[1], `${origin}${scriptPath}`));
  for (const list of code.matchAll(/__vite__mapDeps=.*?\.f=\[([^\]]*)\]/g)) {
    for (const entry of list[1].matchAll(/["'`]([^"'`]+\.m?js)["'`]/g)) dynamicImports.add(resolve(entry[1], `${origin}/`));
  }
  return { staticImports, dynamicImports };
}

/** Bytes of the scripts written into the HTML itself (sent, and compressed, with the page). */
function inlineScriptBytes(html) {
  let bytes = 0;
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (!/\bsrc=/.test(match[1]) && !/type="application\/(?:ld\+)?json"/.test(match[1])) bytes += Buffer.byteLength(match[2]);
  }
  return bytes;
}

/**
 * The page's JavaScript: `onLoad` what every visitor downloads (the scripts the HTML names and
 * their static imports), `all` that and everything reachable with import() too. `react` says
 * whether React's runtime chunk is among the scripts loaded on load.
 */
async function javascriptOf(html, pagePath) {
  const onLoad = await walkScripts(
    [...scriptsOf(html)].map((url) => new URL(url, `${origin}${pagePath}`).pathname),
    false,
  );
  const all = await walkScripts(
    [...scriptsOf(html)].map((url) => new URL(url, `${origin}${pagePath}`).pathname),
    true,
  );
  return { onLoad, all };
}

async function walkScripts(pending, followDynamic) {
  const seen = new Set();
  const total = { files: 0, gzip: 0, br: 0, raw: 0, react: false };
  while (pending.length > 0) {
    const path = pending.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const identity = await get(path, 'identity');
    if (identity.status !== 200) throw new Error(`${path} answered ${identity.status}`);
    total.files += 1;
    total.raw += identity.body.length;
    total.gzip += (await get(path, 'gzip')).body.length;
    total.br += (await get(path, 'br')).body.length;
    if (/\/react\.[\w-]+\.js$/.test(path)) total.react = true;
    const { staticImports, dynamicImports } = importsOf(identity.body.toString('utf8'), path);
    pending.push(...staticImports, ...(followDynamic ? dynamicImports : []));
  }
  return total;
}

/** One Lighthouse run (mobile, the default) in a Chromium of its own; scores 0-100 by category. */
async function lighthouseOnce(url, cookie) {
  const { default: lighthouse } = await import('lighthouse');
  const profile = mkdtempSync(join(tmpdir(), 'fm-bench-chromium-'));
  const debugPort = 9300 + Math.floor(Math.random() * 500);
  const chromium = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      `--remote-debugging-port=${debugPort}`,
      `--user-data-dir=${profile}`,
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  try {
    for (;;) {
      try {
        if ((await fetch(`http://127.0.0.1:${debugPort}/json/version`)).ok) break;
      } catch {
        // Chromium still starting
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // ignoreStatusCode: the not-found page is meant to answer 404, which Lighthouse otherwise refuses to score.
    const result = await lighthouse(
      url,
      { port: debugPort, logLevel: 'error', output: 'json', ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}) },
      {
        extends: 'lighthouse:default',
        settings: { onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'], ignoreStatusCode: true },
      },
    );
    const { categories, audits } = result.lhr;
    const failing = Object.values(categories).flatMap((category) =>
      category.auditRefs.filter((ref) => ref.weight > 0 && audits[ref.id].score !== null && audits[ref.id].score < 1).map((ref) => ref.id),
    );
    return {
      scores: Object.fromEntries(Object.entries(categories).map(([id, category]) => [id, Math.round(category.score * 100)])),
      lcp: audits['largest-contentful-paint'].numericValue,
      fcp: audits['first-contentful-paint'].numericValue,
      failing,
    };
  } finally {
    const exited = new Promise((resolve) => chromium.once('exit', resolve));
    chromium.kill('SIGTERM');
    await exited;
    rmSync(profile, { recursive: true, force: true });
  }
}

function wrkRate(path, headers) {
  const args = ['-t2', '-c50', '-d10s', ...headers.flatMap((header) => ['-H', header]), `${origin}${path}`];
  const output = spawnSync('wrk', args, { encoding: 'utf8' }).stdout;
  const match = /Requests\/sec:\s+([\d.]+)/.exec(output);
  if (!match) throw new Error(`wrk printed no rate:\n${output}`);
  return Number(match[1]);
}

const stop = await startProduct();
try {
  console.log(`page weight for a visitor (${origin})`);
  console.log('JS on load: the scripts the page loads and their static imports (transfer sizes), React: whether that includes');
  console.log("React's runtime; JS all: with everything reachable by import() too (a signed-in visitor's header bells);");
  console.log('inline: scripts inside the HTML (raw, counted in the HTML)');
  console.log(
    `${'page'.padEnd(NAME_WIDTH)} status  load gzip  load br    React  all files  all gzip   all br     inline JS  HTML raw   HTML br    HTML gzip`,
  );
  for (const page of PAGES) {
    const raw = await get(page.path, 'identity', page.cookie);
    const { onLoad, all } = await javascriptOf(raw.body.toString('utf8'), page.path);
    const br = await get(page.path, 'br', page.cookie);
    const gzip = await get(page.path, 'gzip', page.cookie);
    if (contentPages && onLoad.gzip > BUDGET.jsGzipBytes) overBudget.push(`${page.path}: ${kB(onLoad.gzip)} of gzipped JavaScript on load`);
    if (contentPages && onLoad.react) overBudget.push(`${page.path}: loads React`);
    if (contentPages && raw.status !== 200) overBudget.push(`${page.path}: status ${raw.status}`);
    console.log(
      [
        page.name.padEnd(NAME_WIDTH),
        String(raw.status).padEnd(7),
        kB(onLoad.gzip).padEnd(10),
        kB(onLoad.br).padEnd(10),
        (onLoad.react ? 'yes' : 'no').padEnd(6),
        String(all.files).padEnd(10),
        kB(all.gzip).padEnd(10),
        kB(all.br).padEnd(10),
        kB(inlineScriptBytes(raw.body.toString('utf8'))).padEnd(10),
        kB(raw.body.length).padEnd(10),
        `${kB(br.body.length)} ${br.headers['content-encoding'] === 'br' ? '' : '(not br)'}`.padEnd(10),
        `${kB(gzip.body.length)} ${gzip.headers['content-encoding'] === 'gzip' ? '' : '(not gzip)'}`,
      ].join(' '),
    );
  }

  if (!weightOnly && existsSync(CHROMIUM)) {
    console.log(`\nLighthouse mobile, median of ${runs} runs`);
    console.log(`${'page'.padEnd(NAME_WIDTH)} perf  a11y  best-pr  seo   FCP ms  LCP ms  audits below 100 (any run)`);
    for (const page of PAGES) {
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await lighthouseOnce(`${origin}${page.path}`, page.cookie));
      const score = (id) => median(results.map((r) => r.scores[id]));
      if (contentPages && score('performance') < BUDGET.performance) overBudget.push(`${page.path}: performance ${score('performance')}`);
      if (contentPages && score('accessibility') < BUDGET.accessibility)
        overBudget.push(`${page.path}: accessibility ${score('accessibility')}`);
      console.log(
        [
          page.name.padEnd(NAME_WIDTH),
          String(score('performance')).padEnd(5),
          String(score('accessibility')).padEnd(5),
          String(score('best-practices')).padEnd(8),
          String(score('seo')).padEnd(5),
          median(results.map((r) => r.fcp))
            .toFixed(0)
            .padEnd(7),
          median(results.map((r) => r.lcp))
            .toFixed(0)
            .padEnd(7),
          [...new Set(results.flatMap((r) => r.failing))].join(', ') || '-',
        ].join(' '),
      );
    }
  }

  if (contentPages) {
    const limits = `${kB(BUDGET.jsGzipBytes)} gzipped JS${weightOnly ? '' : `, performance >= ${BUDGET.performance}, accessibility ${BUDGET.accessibility}`}`;
    console.log(
      overBudget.length === 0
        ? `\nEvery content page is within budget (${limits}).`
        : `\nOver budget (${limits}):\n  ${overBudget.join('\n  ')}`,
    );
    if (overBudget.length > 0) process.exitCode = 1;
  }

  if (!weightOnly && !contentPages && spawnSync('wrk', ['--version']).error === undefined) {
    console.log(`\nGET / with wrk (2 threads, 50 connections, 10 s), median of ${runs} runs`);
    for (const [label, headers] of [
      ['Accept-Encoding: br', ['Accept-Encoding: br']],
      ['no Accept-Encoding', []],
    ]) {
      const rates = [];
      for (let i = 0; i < runs; i++) rates.push(wrkRate('/', headers));
      console.log(
        `${label.padEnd(22)} ${median(rates).toFixed(0).padStart(7)} requests/s   (runs: ${rates.map((r) => r.toFixed(0)).join(', ')})`,
      );
    }
  }
} finally {
  await stop();
}
