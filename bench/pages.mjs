// Page-weight benchmark, run as a whole program against the built product:
//   node bench/pages.mjs [runs] [--weight-only] [--content] [--only=/,/browse]
// Starts the product on its embedded defaults (own port and data folder) and prints, per page
// (`/`, `/contact`, the account pages, the not-found page, and the listings pages: /browse, a listing,
// /post-listing, /rent, the category pages, /categories; with --content the content pages instead: /about,
// /support, /blog and every article, the policies, /roadmap, /sell and the rest):
//   - the JavaScript a visitor downloads on load: every script the HTML loads, islands' component
//     and renderer modules, and their static imports, each counted once, as the bytes on the wire
//     with Accept-Encoding gzip and br (response headers included), and whether React's runtime is among them; and the same
//     with everything reachable by import() too (what a signed-in visitor's header may load);
//   - the HTML as sent raw, with br and with gzip;
//   - when /usr/bin/chromium exists, Lighthouse mobile scores as medians of `runs` (default 3);
//   - when wrk is installed, requests per second of `/` with Accept-Encoding br and without
//     compression, medians of `runs` runs of 10 s with 50 connections (not with --content).
// Every page is held to its goal and the run exits with 1 when one misses it (printed last):
//   - static and content pages (home, the category pages, /about, /blog, the policies ...): no React,
//     at most 4 script files and 15 kB of JavaScript on the wire on load (gzip, response headers
//     included; br is printed beside it);
//   - Lighthouse mobile: performance 100 on the pages with islands (/signin, and as a member signed in for
//     the run: /post-listing, /profile, /messages;
//     /browse), 100 in all four categories on /, /browse and a listing page, and on the content
//     pages performance 98 or more and accessibility 100.
// --only= measures the pages of those names only (and skips wrk).
// FM_BENCH_PORT chooses the port (default 3920). FM_BENCH_DATABASE_URL runs the product on that
// database (a clone of the million-listing one, say) instead of its embedded one; the listing page
// is then the newest listing's.
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
const databaseUrl = process.env.FM_BENCH_DATABASE_URL;
/** Static and content pages (issue 19 §4): few files, little JavaScript, no React. */
const STATIC = { files: 4, wireBytes: 15 * 1024 };
const ALL_FOUR = { performance: 100, accessibility: 100, 'best-practices': 100, seo: 100 };
const ISLANDS = { performance: 100 };
const CONTENT = { performance: 98, accessibility: 100 };
const APP_PAGES = [
  { name: '/', path: '/', weight: STATIC, lighthouse: ALL_FOUR },
  { name: '/contact', path: '/contact' },
  { name: '/signin', path: '/signin', lighthouse: ISLANDS },
  { name: '/signup', path: '/signup' },
  // A visitor is sent on to /signin by the server (302); a member sees the profile island.
  { name: '/profile', path: '/profile', signedIn: true, lighthouse: ISLANDS },
  { name: '/messages', path: '/messages', signedIn: true, lighthouse: ISLANDS },
  { name: 'not found', path: '/no-such-page' },
  { name: '/browse', path: '/browse', lighthouse: ALL_FOUR },
  // Without a database of listings, an unknown id: the page answers Listing Not Found (404) with the
  // same scripts as a listing (and no Lighthouse goal: a 404 is meant to fail SEO's status audit).
  { name: '/listing', path: '/listing/x', listing: true },
  { name: '/post-list.', path: '/post-listing', signedIn: true, lighthouse: ISLANDS },
  ...['/rent', '/land', '/livestock', '/equipment', '/seeds-plants', '/categories'].map((path) => ({ name: path, path, weight: STATIC })),
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
].map((page) => ({ ...page, weight: STATIC, lighthouse: CONTENT }));
const PAGES = contentPages ? CONTENT_PAGES : APP_PAGES;
const missed = [];
const NAME_WIDTH = contentPages ? 21 : 13;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kB = (bytes) => `${(bytes / 1024).toFixed(1)} kB`;

/** GET as a client would, without decoding: status, headers, the bytes of the header block and the body bytes as sent. */
function get(path, encoding, cookie) {
  return new Promise((resolve, reject) => {
    const headers = { ...(encoding ? { 'accept-encoding': encoding } : {}), ...(cookie ? { cookie } : {}) };
    request(`${origin}${path}`, { headers }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode,
          headers: response.headers,
          headerBytes: headerBytesOf(response),
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** The response's status line and header block as sent (HTTP/1.1): part of what a script costs on the wire. */
function headerBytesOf(response) {
  let bytes = Buffer.byteLength(`HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}\r\n\r\n`);
  for (let i = 0; i < response.rawHeaders.length; i += 2)
    bytes += Buffer.byteLength(`${response.rawHeaders[i]}: ${response.rawHeaders[i + 1]}\r\n`);
  return bytes;
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
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
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
  // wireGzip / wireBr: the body with that encoding plus the response's headers.
  const total = { files: 0, gzip: 0, br: 0, raw: 0, wireGzip: 0, wireBr: 0, react: false };
  while (pending.length > 0) {
    const path = pending.pop();
    if (seen.has(path)) continue;
    seen.add(path);
    const identity = await get(path, 'identity');
    if (identity.status !== 200) throw new Error(`${path} answered ${identity.status}`);
    total.files += 1;
    total.raw += identity.body.length;
    const gzip = await get(path, 'gzip');
    const br = await get(path, 'br');
    total.gzip += gzip.body.length;
    total.br += br.body.length;
    total.wireGzip += gzip.body.length + gzip.headerBytes;
    total.wireBr += br.body.length + br.headerBytes;
    if (/\/react\.[\w-]+\.js$/.test(path)) total.react = true;
    const { staticImports, dynamicImports } = importsOf(identity.body.toString('utf8'), path);
    pending.push(...staticImports, ...(followDynamic ? dynamicImports : []));
  }
  return total;
}

/** Puts `cookie` ("a=1; b=2") into the cookie jar of the Chromium at `debugPort`, for `url`'s site (DevTools protocol). */
async function setBrowserCookies(debugPort, url, cookie) {
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${debugPort}/json/version`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const cookies = cookie.split('; ').map((pair) => {
    const at = pair.indexOf('=');
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url };
  });
  const answered = new Promise((resolve, reject) => {
    socket.onmessage = (event) => {
      const { error } = JSON.parse(event.data);
      if (error) reject(new Error(`Storage.setCookies: ${error.message}`));
      else resolve();
    };
  });
  socket.send(JSON.stringify({ id: 1, method: 'Storage.setCookies', params: { cookies } }));
  await answered;
  socket.close();
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
    // In the browser's own cookie jar, as after signing in: the pages' scripts read the fm_signed_in hint
    // from document.cookie, which a request header alone would not give them.
    if (cookie) await setBrowserCookies(debugPort, url, cookie);
    // ignoreStatusCode: the not-found page is meant to answer 404, which Lighthouse otherwise refuses to score.
    const result = await lighthouse(
      url,
      { port: debugPort, logLevel: 'error', output: 'json' },
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
      cls: audits['cumulative-layout-shift'].numericValue,
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

/** The goals a page missed, in words. */
function weightMisses(page, status, onLoad) {
  if (!page.weight) return [];
  return [
    status !== 200 && `status ${status}`,
    onLoad.react && 'loads React',
    onLoad.files > page.weight.files && `${onLoad.files} script files on load (goal ${page.weight.files})`,
    onLoad.wireGzip > page.weight.wireBytes && `${kB(onLoad.wireGzip)} of JavaScript on the wire (goal ${kB(page.weight.wireBytes)})`,
  ].filter(Boolean);
}

/**
 * The cookies of a member signed in through the API (an account made for the run): the signed-in pages are
 * measured as a member sees them, islands loaded with their data, not as the redirect a visitor gets.
 */
async function signedInCookie() {
  const headers = { 'content-type': 'application/json', 'x-requested-with': 'fieldmarket' };
  const account = { name: 'Bench Member', email: `bench-${process.pid}@example.co.uk`, password: 'Meadow-Gate-2026' };
  const signUp = await fetch(`${origin}/api/auth/signup`, { method: 'POST', headers, body: JSON.stringify(account) });
  if (signUp.status !== 201) throw new Error(`sign-up answered ${signUp.status}`);
  const signIn = await fetch(`${origin}/api/auth/signin`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (signIn.status !== 200) throw new Error(`sign-in answered ${signIn.status}`);
  return signIn.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

const stop = await startProduct();
try {
  const memberCookie = await signedInCookie();
  for (const page of PAGES) if (page.signedIn) page.cookie = memberCookie;
  if (databaseUrl) {
    // A real listing of that database: the newest one.
    const newest = await (await fetch(`${origin}/api/listings?limit=1`)).json();
    const id = (newest.data ?? newest).listings?.[0]?.id;
    if (!id) throw new Error('FM_BENCH_DATABASE_URL: the database has no listing to show');
    for (const page of PAGES) if (page.listing) Object.assign(page, { path: `/listing/${id}`, lighthouse: ALL_FOUR });
  }
  const only = process.argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const pages = only ? PAGES.filter((page) => only.includes(page.name)) : PAGES;

  console.log(`page weight for a visitor (${origin})`);
  console.log('JS on load: the scripts the page loads and their static imports: files, bytes on the wire (gzip or br, response');
  console.log("headers included); React: whether React's runtime is among them; JS all: with everything reachable by import()");
  console.log("too (a signed-in visitor's header bells); inline: scripts inside the HTML (raw, counted in the HTML)");
  console.log(
    `${'page'.padEnd(NAME_WIDTH)} status  files  wire gzip  wire br    React  all files  all gzip   all br     inline JS  HTML raw   HTML br    HTML gzip`,
  );
  for (const page of pages) {
    const raw = await get(page.path, 'identity', page.cookie);
    const { onLoad, all } = await javascriptOf(raw.body.toString('utf8'), page.path);
    const br = await get(page.path, 'br', page.cookie);
    const gzip = await get(page.path, 'gzip', page.cookie);
    missed.push(...weightMisses(page, raw.status, onLoad).map((miss) => `${page.path}: ${miss}`));
    console.log(
      [
        page.name.padEnd(NAME_WIDTH),
        String(raw.status).padEnd(7),
        String(onLoad.files).padEnd(6),
        kB(onLoad.wireGzip).padEnd(10),
        kB(onLoad.wireBr).padEnd(10),
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

  if (!weightOnly && !contentPages && !only && spawnSync('wrk', ['--version']).error === undefined) {
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

  if (!weightOnly && existsSync(CHROMIUM)) {
    console.log(`\nLighthouse mobile, median of ${runs} runs`);
    console.log(`${'page'.padEnd(NAME_WIDTH)} perf  a11y  best-pr  seo   FCP ms  LCP ms  CLS    audits below 100 (any run)`);
    for (const page of pages) {
      const results = [];
      for (let i = 0; i < runs; i++) results.push(await lighthouseOnce(`${origin}${page.path}`, page.cookie));
      const score = (id) => median(results.map((r) => r.scores[id]));
      for (const [id, goal] of Object.entries(page.lighthouse ?? {})) {
        if (score(id) < goal) missed.push(`${page.path}: Lighthouse ${id} ${score(id)} (goal ${goal})`);
      }
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
          median(results.map((r) => r.cls))
            .toFixed(3)
            .padEnd(6),
          [...new Set(results.flatMap((r) => r.failing))].join(', ') || '-',
        ].join(' '),
      );
    }
  }

  console.log(
    `\nGoals: static and content pages at most ${STATIC.files} script files and ${kB(STATIC.wireBytes)} of JavaScript on the wire`,
  );
  console.log('(gzip, headers included), no React; Lighthouse as each page states (skipped with --weight-only).');
  console.log(missed.length === 0 ? 'Every page meets its goals.' : `Missed:\n  ${missed.join('\n  ')}`);
  if (missed.length > 0) process.exitCode = 1;
} finally {
  await stop();
}
