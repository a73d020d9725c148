import { beforeAll, describe, expect, it } from '@jest/globals';
import { readdir, readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { useTestApp } from '../testing/test-context.js';

// Against the real build (the test command builds first): the files the product would serve.
const frontendDir = resolve(import.meta.dirname, '../../../frontend/dist');
const clientFile = (path: string) => readFile(resolve(frontendDir, 'client', path));

describe('the built site as the web process serves it', () => {
  let script: string;

  const { t } = useTestApp({ FRONTEND_DIR: frontendDir });
  beforeAll(async () => {
    const assets = await readdir(resolve(frontendDir, 'client/_astro'));
    const found = assets.find((file) => file.endsWith('.js'));
    if (!found) throw new Error('no script in the build');
    script = `_astro/${found}`;
  });

  const get = (url: string, acceptEncoding?: string, cookie?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      headers: { ...(acceptEncoding ? { 'accept-encoding': acceptEncoding } : {}), ...(cookie ? { cookie } : {}) },
    });

  it.each([
    ['br', 'index.html.br'],
    ['gzip', 'index.html.gz'],
    ['br, gzip', 'index.html.br'],
  ])('sends a page as the build compressed it for Accept-Encoding %p', async (acceptEncoding, file) => {
    const response = await get('/', acceptEncoding);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe(file.endsWith('.br') ? 'br' : 'gzip');
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toBe('no-cache');
    // Byte for byte the build's file: compressed once at build time, not again per response.
    expect(response.rawPayload.equals(await clientFile(file))).toBe(true);
  });

  it('sends the page uncompressed to a client that accepts no compression, still varying on it', async () => {
    const response = await get('/contact');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.rawPayload.equals(await clientFile('contact/index.html'))).toBe(true);
  });

  it('sends scripts precompressed with a year of caching', async () => {
    const response = await get(`/${script}`, 'gzip, deflate, br');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.rawPayload.equals(await clientFile(`${script}.br`))).toBe(true);
  });

  it.each(['/no-such-page', '/404.html', '/index.html', '/index.html.br', `/_astro/missing.js`])(
    'answers %s with the not-found page, status 404, compressed',
    async (url) => {
      const response = await get(url, 'br');
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.headers['cache-control']).toBe('no-store');
      expect(response.headers.etag).toBeUndefined();
      expect(brotliDecompressSync(response.rawPayload).toString()).toContain('Page not found');
    },
  );

  it('answers a gzip-only client with the gzipped not-found page', async () => {
    const response = await get('/no-such-page', 'gzip');
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(response.rawPayload).toString()).toContain('Page not found');
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('compresses a page rendered per request for Accept-Encoding %p', async (acceptEncoding, decompress) => {
    // A profile id that is not one: Astro renders the not-found page itself, with no API call.
    const plain = await get('/profile/not-an-id');
    const packed = await get('/profile/not-an-id', acceptEncoding);
    expect([plain.statusCode, packed.statusCode]).toEqual([404, 404]);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe(acceptEncoding);
    expect(packed.headers.vary).toMatch(/Accept-Encoding/i);
    // A visitor's page is sent whole (it may be reused), so its length is known: the compressed one, never the page's.
    expect([undefined, String(packed.rawPayload.length)]).toContain(packed.headers['content-length']);
    expect(decompress(packed.rawPayload).toString('utf8')).toBe(plain.body);
    expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
  });

  it.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)("compresses a member's page as Astro streams it, for Accept-Encoding %p", async (acceptEncoding, decompress) => {
    // With a session cookie the page is the member's own: streamed through the compressor, never kept.
    const member = 'fm_session=not-a-real-session';
    const plain = await get('/profile/not-an-id', undefined, member);
    const packed = await get('/profile/not-an-id', acceptEncoding, member);
    expect([plain.statusCode, packed.statusCode]).toEqual([404, 404]);
    expect(packed.headers['content-encoding']).toBe(acceptEncoding);
    expect(packed.headers['content-length']).toBeUndefined();
    expect(decompress(packed.rawPayload).toString('utf8')).toBe(plain.body);
  });

  it('keeps unknown API paths JSON', async () => {
    const response = await get('/api/no-such-endpoint', 'br');
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ success: false, error: 'No API endpoint at GET /api/no-such-endpoint' });
  });

  it('serves the favicon browsers ask for and robots.txt', async () => {
    const favicon = await get('/favicon.ico');
    expect(favicon.statusCode).toBe(200);
    expect(favicon.headers['content-type']).toMatch(/icon/);
    const robots = await get('/robots.txt');
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.body).toMatch(/^User-agent: \*$/m);
  });
});
