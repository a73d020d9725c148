import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { signedInPerson } from '../testing/accounts.js';
import { REUSE_FOR_VISITORS_HEADER } from '../contracts/page-context.js';
import { insertListing, listingBody } from '../testing/listings.js';
import { freePort } from '../testing/processes.js';
import { createTestDatabase, type TestDatabase } from '../testing/test-database.js';
import { startTestApp, type TestApp } from '../testing/test-app.js';

// Against the real build (the test command builds first), listening: each client below connects from
// an address of its own on the loopback network (127.0.0.2, 127.0.0.3...), as visitors on the internet do.
const frontendDir = resolve(import.meta.dirname, '../../../frontend/dist');
/** Each client's allowance of API calls a minute in these tests; a listing page makes two. */
const API_LIMIT = 12;

interface Answer {
  status: number;
  /** The response's first line, as it went over the wire. */
  statusLine: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as a browser reads it: decoded as its Content-Encoding says. */
  text: string;
}

function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  return body.toString('utf8');
}

function get(origin: string, path: string, from: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((done, fail) => {
    const call = httpRequest(
      `${origin}${path}`,
      { localAddress: from, agent: false, headers: { 'user-agent': 'page-test', ...headers } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          done({
            status: response.statusCode ?? 0,
            statusLine: `HTTP/${response.httpVersion} ${response.statusCode} ${response.statusMessage}`,
            headers: response.headers,
            body: Buffer.concat(chunks).toString('utf8'),
            text: decoded(Buffer.concat(chunks), response.headers['content-encoding']),
          }),
        );
      },
    );
    call.on('error', fail);
    call.end();
  });
}

async function startListening(db: TestDatabase, env: Record<string, string>): Promise<{ t: TestApp; origin: string; port: number }> {
  const port = await freePort();
  const t = await startTestApp(db, {
    FRONTEND_DIR: frontendDir,
    PORT: String(port),
    API_RATE_LIMIT: String(API_LIMIT),
    API_RATE_WINDOW_SECONDS: '60',
    ...env,
  });
  await t.app.listen({ port, host: '127.0.0.1' });
  return { t, origin: `http://127.0.0.1:${port}`, port };
}

/** Loads `path` as `from` until the page answers something other than 200; that answer (at most `tries` loads). */
async function flood(origin: string, path: string, from: string, headers: () => Record<string, string> = () => ({})): Promise<Answer> {
  let answer = await get(origin, path, from, headers());
  for (let load = 1; answer.status === 200 && load < API_LIMIT * 2; load++) answer = await get(origin, path, from, headers());
  return answer;
}

const viewsOf = async (db: TestDatabase, id: string) =>
  (await db.query<{ views: number }>('select views from listing where id = $1', [id]))[0]?.views;

describe('pages rendered on the server, reached directly (no TRUST_PROXY)', () => {
  let db: TestDatabase;
  let t: TestApp;
  let origin: string;
  let port: number;
  let sellerId: string;
  let listingId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ t, origin, port } = await startListening(db, {}));
    sellerId = (await signedInPerson(t)).id;
    listingId = await insertListing(db, { seller: sellerId, title: 'Massey Ferguson 135 tractor' });
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it("spend the visitor's own API budget: a client flooding a listing gets 429 while another's pages still answer", async () => {
    const limited = await flood(origin, `/listing/${listingId}`, '127.0.0.2');
    expect(limited.statusLine).toBe('HTTP/1.1 429 Too Many Requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many requests. Please wait');

    for (const path of [`/listing/${listingId}`, '/browse', `/profile/${sellerId}`]) {
      const other = await get(origin, path, '127.0.0.3');
      expect({ path, status: other.status }).toEqual({ path, status: 200 });
    }
    expect((await get(origin, `/listing/${listingId}`, '127.0.0.3')).body).toContain('Massey Ferguson 135 tractor');
  });

  it('count views per visitor: two visitors are two views, the same visitor again is none', async () => {
    const id = await insertListing(db, { seller: sellerId, title: 'Grass harrow, 4 metre' });
    for (const from of ['127.0.0.4', '127.0.0.5', '127.0.0.4']) expect((await get(origin, `/listing/${id}`, from)).status).toBe(200);
    expect(await viewsOf(db, id)).toBe(2);
  });

  it('give absolute addresses on the configured public origin, never the Host the client sent', async () => {
    const publicOrigin = `http://localhost:${port}`; // PUBLIC_URL's default, as the backend derives it
    const forged = { host: 'evil.example' };
    const sitemap = await get(origin, '/sitemap.xml', '127.0.0.6', forged);
    expect(sitemap.status).toBe(200);
    expect(sitemap.body).toContain(`<loc>${publicOrigin}/listing/${listingId}</loc>`);
    const robots = await get(origin, '/robots.txt', '127.0.0.6', forged);
    expect(robots.body).toContain(`Sitemap: ${publicOrigin}/sitemap.xml`);
    const page = await get(origin, `/listing/${listingId}`, '127.0.0.6', forged);
    expect(page.body).toContain(`<link rel="canonical" href="${publicOrigin}/listing/${listingId}">`);
    expect(page.body).toContain(`<meta property="og:url" content="${publicOrigin}/listing/${listingId}">`);
    const browse = await get(origin, '/browse', '127.0.0.6', forged);
    expect(browse.body).toContain(`<link rel="canonical" href="${publicOrigin}/browse">`);
    for (const answer of [sitemap, robots, page, browse]) expect(answer.body).not.toContain('evil.example');
  });

  it.each([
    ['a missing listing', () => `/listing/${randomUUID()}`, 'HTTP/1.1 404 Not Found'],
    ['a missing profile', () => `/profile/${randomUUID()}`, 'HTTP/1.1 404 Not Found'],
    ['a profile id that is none', () => '/profile/not-an-id', 'HTTP/1.1 404 Not Found'],
    ['a path with no page', () => '/no-such-page', 'HTTP/1.1 404 Not Found'],
    ['a broken page link', () => '/browse?cursor=not-a-cursor', 'HTTP/1.1 400 Bad Request'],
    ['a broken rentals page link', () => '/rent?cursor=not-a-cursor', 'HTTP/1.1 400 Bad Request'],
  ])('answer %s with the status line of its code', async (_what, path, statusLine) => {
    expect((await get(origin, path(), '127.0.0.7')).statusLine).toBe(statusLine);
  });
});

describe('listing pages reused for visitors (SEARCH_CACHE_MS)', () => {
  let db: TestDatabase;
  let t: TestApp;
  let origin: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    // Long enough that nothing in a test outlives it by chance: what ends a reuse here is a write.
    ({ t, origin } = await startListening(db, { SEARCH_CACHE_MS: '60000' }));
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it("answers a visitor's repeat of the same page from its first rendering: no API budget spent, the same HTML, no internal header", async () => {
    const first = await get(origin, '/browse?q=baler', '127.0.0.8', { 'accept-encoding': 'gzip, deflate, br' });
    expect(first.status).toBe(200);
    expect(first.text).toContain('<h1');
    // Rendering each would spend one API call of the visitor's 12 a minute: the 13th would be a 429.
    for (let load = 0; load < API_LIMIT * 2; load++) {
      const again = await get(origin, '/browse?q=baler', '127.0.0.8', { 'accept-encoding': load % 2 ? 'gzip, deflate, br' : 'identity' });
      expect({ load, status: again.status }).toEqual({ load, status: 200 });
      expect(again.headers['content-encoding']).toBe(load % 2 ? 'br' : undefined);
      expect(again.text).toBe(first.text);
      expect(again.headers[REUSE_FOR_VISITORS_HEADER]).toBeUndefined();
    }
    for (const path of ['/land', '/rent', '/categories', '/signin']) {
      const page = await get(origin, path, '127.0.0.9');
      expect({ path, status: page.status }).toEqual({ path, status: 200 });
      expect(page.headers[REUSE_FOR_VISITORS_HEADER]).toBeUndefined();
    }
  });

  it('shows a listing published through this process on the next visitor page at once', async () => {
    const before = await get(origin, '/browse?category=equipment', '127.0.0.10');
    expect(before.body).not.toContain('Kuhn GMD 3511 mower');
    const seller = await signedInPerson(t);
    const posted = await seller.browser.call('POST', '/api/listings', await listingBody(seller.browser, { title: 'Kuhn GMD 3511 mower' }));
    expect(posted.statusCode).toBe(201);
    expect((await get(origin, '/browse?category=equipment', '127.0.0.10')).body).toContain('Kuhn GMD 3511 mower');
  });

  it("answers a visitor's repeat of a public profile from its first rendering, and shows the member's changes at once", async () => {
    const member = await signedInPerson(t);
    const path = `/profile/${member.id}`;
    const first = await get(origin, path, '127.0.0.12');
    expect(first.status).toBe(200);
    expect(first.text).toContain(member.person.name);
    // Their browser asks again each time; the web process answers from the one rendering.
    expect(first.headers['cache-control']).toBe('no-cache');
    // The page makes three API calls: rendering each load would pass the visitor's 12 a minute by the 5th.
    for (let load = 0; load < API_LIMIT * 2; load++) {
      const again = await get(origin, path, '127.0.0.12');
      expect({ load, status: again.status }).toEqual({ load, status: 200 });
      expect(again.text).toBe(first.text);
      expect(again.headers[REUSE_FOR_VISITORS_HEADER]).toBeUndefined();
    }
    const own = await get(origin, path, '127.0.0.13', { cookie: member.browser.cookies });
    expect(own.headers['cache-control']).toBe('no-store');

    expect(
      (await member.browser.call('PUT', '/api/profile', { full_name: member.person.name, bio: 'Hay and straw, small bales.' })).statusCode,
    ).toBe(200);
    expect((await get(origin, path, '127.0.0.14')).text).toContain('Hay and straw, small bales.');
    const hidden = {
      profile_visible: false,
      contact_visible: true,
      listings_visible: true,
      email_notifications: true,
      push_notifications: true,
    };
    expect((await member.browser.call('PUT', '/api/profile/privacy', { privacy_settings: hidden })).statusCode).toBe(200);
    expect((await get(origin, path, '127.0.0.14')).status).toBe(404);
  });

  it("renders a member's page for them each time (their own budget), never from a visitor's", async () => {
    const member = await signedInPerson(t);
    const cookie = member.browser.cookies;
    expect(cookie).toContain('fm_session=');
    expect((await get(origin, '/browse?q=trailer', '127.0.0.11')).status).toBe(200);
    const limited = await flood(origin, '/browse?q=trailer', '127.0.0.11', () => ({ cookie }));
    expect(limited.status).toBe(429);
  });
});

describe.each([
  ['a hop count', '1'],
  ["the proxy's address", '127.0.0.2'],
])('pages rendered on the server behind a proxy (TRUST_PROXY as %s)', (_form, trustProxy) => {
  let db: TestDatabase;
  let t: TestApp;
  let origin: string;
  let listingId: string;
  /** The reverse proxy connects from 127.0.0.2 and appends the address it saw to what the client sent. */
  const proxy = '127.0.0.2';

  beforeAll(async () => {
    db = await createTestDatabase();
    ({ t, origin } = await startListening(db, { TRUST_PROXY: trustProxy, PUBLIC_URL: 'https://fieldmarket.example' }));
    const sellerId = (await signedInPerson(t)).id;
    listingId = await insertListing(db, { seller: sellerId, title: 'Round bale feeder' });
  });
  afterAll(async () => {
    await t.close();
    await db.drop();
  });

  it('count the address the proxy saw, as the API does; what the client writes in X-Forwarded-For changes nothing', async () => {
    let forgery = 0;
    // Each load claims another address at the left; the proxy saw 10.9.0.1 every time.
    const limited = await flood(origin, `/listing/${listingId}`, proxy, () => ({ 'x-forwarded-for': `203.0.113.${++forgery}, 10.9.0.1` }));
    expect(limited.statusLine).toBe('HTTP/1.1 429 Too Many Requests');
    // The API itself counts the same client as spent...
    const api = await get(origin, '/api/listings', proxy, { 'x-forwarded-for': '10.9.0.1' });
    expect(api.status).toBe(429);
    // ...and a client claiming to be 10.9.0.1 is still counted as the address the proxy saw.
    const claimant = await get(origin, `/listing/${listingId}`, proxy, { 'x-forwarded-for': '10.9.0.1, 10.9.0.2' });
    expect(claimant.status).toBe(200);
  });

  it('count views by the address the proxy saw', async () => {
    const id = await insertListing(db, { seller: (await signedInPerson(t)).id, title: 'Cattle crush' });
    for (const seen of ['10.9.1.1', '10.9.1.2', '10.9.1.1']) {
      expect((await get(origin, `/listing/${id}`, proxy, { 'x-forwarded-for': `198.51.100.7, ${seen}` })).status).toBe(200);
    }
    expect(await viewsOf(db, id)).toBe(2);
  });

  it('use PUBLIC_URL for absolute addresses', async () => {
    const robots = await get(origin, '/robots.txt', proxy, { host: 'evil.example', 'x-forwarded-for': '10.9.2.1' });
    expect(robots.body).toContain('Sitemap: https://fieldmarket.example/sitemap.xml');
  });
});
