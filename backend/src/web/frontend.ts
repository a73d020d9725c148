import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageContext } from '../contracts/page-context.js';
import { pageContext } from './page-context.js';
import { REUSE_FOR_VISITORS_HEADER } from '../contracts/page-context.js';
import { acceptedEncoding, COMPRESSIBLE, createCompressor } from './compression.js';
import type { PageReuse } from './page-reuse.js';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void, locals: { page: PageContext }) => Promise<void>;

const API_PREFIXES = ['/api/', '/socket.io/'];
const NOT_FOUND_PAGE = '404.html';
/** The not-found page's route as Astro names it in STATIC_HEADERS_FILE. */
const NOT_FOUND_ROUTE = '/404';
/** Written by the frontend build (scripts/precompress.mjs) beside each file; served in its place. */
const PRECOMPRESSED_SUFFIX = /\.(?:br|gz)$/;
/** Written by the Astro node adapter (staticHeaders): each prerendered page's Content-Security-Policy. */
const STATIC_HEADERS_FILE = '_headers.json';

/**
 * Serves the built Astro site from the web process:
 *  - `/_astro/*` and the other files in dist/client, with long caching for hashed assets;
 *  - each prerendered page at its clean path (`contact.html` or `contact/index.html` → `/contact`)
 *    with the Content-Security-Policy Astro computed for it;
 *  - anything else through Astro's handler (pages with `prerender = false`), and finally the
 *    prerendered 404 page with status 404. `/api` and `/socket.io` never reach Astro.
 * Files are sent as the build's brotli or gzip copy when the client accepts one (with
 * `Vary: Accept-Encoding`): a stream, which per-response compression (compression.ts) leaves alone.
 * Pages Astro renders get the site's `publicOrigin` and call the API in process (page-context.ts); those that
 * opt in are reused for visitors through `pageReuse` (page-reuse.ts).
 */
export async function mountFrontend(
  fastify: FastifyInstance,
  frontendDir: string,
  publicOrigin: string,
  pageReuse?: PageReuse,
): Promise<void> {
  const clientDir = join(frontendDir, 'client');
  const serverEntry = join(frontendDir, 'server', 'entry.mjs');
  if (!existsSync(join(clientDir, NOT_FOUND_PAGE)) || !existsSync(serverEntry)) {
    throw new Error(`No built frontend in ${frontendDir}: run the build (./fieldmarket build) or set FRONTEND_DIR=none`);
  }
  const { handler } = (await import(pathToFileURL(serverEntry).href)) as { handler: AstroHandler };
  const policies = await readPagePolicies(frontendDir);

  await fastify.register(fastifyStatic, {
    root: clientDir,
    serve: false,
    preCompressed: true,
    index: false,
    setHeaders: (reply, path) => {
      const file = path.slice(clientDir.length + 1).replace(PRECOMPRESSED_SUFFIX, '');
      reply.header('cache-control', reply.statusCode === 404 ? 'no-store' : cacheControlFor(file));
    },
  });

  const policyFor = (route: string): string => {
    const policy = policies.get(route);
    if (policy === undefined) throw new Error(`No Content-Security-Policy for ${route} in ${STATIC_HEADERS_FILE}: rebuild the frontend`);
    return policy;
  };
  const sendPage = (reply: FastifyReply, file: string, policy: string, status: 200 | 404) => {
    // A 404 carries no validators: a cached 304 must not stand in for "not found".
    const options = status === 404 ? { etag: false, lastModified: false } : {};
    return reply.status(status).header('content-security-policy', policy).sendFile(file, options);
  };

  for (const file of await listFiles(clientDir)) {
    if (PRECOMPRESSED_SUFFIX.test(file)) continue;
    if (!file.endsWith('.html')) {
      fastify.get(`/${file}`, (_request, reply) => reply.sendFile(file));
      continue;
    }
    const route = pageRoute(file);
    if (route === undefined) continue;
    const policy = policyFor(route);
    fastify.get(route, (_request, reply) => sendPage(reply, file, policy, 200));
  }

  const notFoundPolicy = policyFor(NOT_FOUND_ROUTE);
  fastify.get('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path === '/socket.io' || API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      return reply.status(404).send({ success: false, error: `No API endpoint at ${request.method} ${path}` });
    }
    const reuseKey = pageReuse?.keyFor(request.raw);
    const reused = reuseKey === undefined ? undefined : await pageReuse?.ready(reuseKey);
    if (reused) {
      reply.hijack();
      pageReuse?.send(request.raw, reply.raw, reused);
      return;
    }
    correctWhatAstroSends(reply.raw);
    // A visitor's page is rendered into memory (it may be kept for the next visitor); a member's is streamed.
    const captured = reuseKey === undefined ? undefined : pageReuse?.capture(reuseKey, request.raw, reply.raw);
    const restore = captured ? captured.abandon : compressWhatAstroWrites(request.raw, reply.raw);
    const rendered = await renderedByAstro(handler, request, reply, pageContext(fastify, request, publicOrigin)).catch((error: unknown) => {
      restore();
      throw error;
    });
    if (rendered) {
      // Astro has answered on the raw response already.
      reply.hijack();
      return;
    }
    restore();
    return sendPage(reply, NOT_FOUND_PAGE, notFoundPolicy, 404);
  });
}

/** Offers the request to Astro; resolves false when Astro has no page for it (it calls next). */
function renderedByAstro(handler: AstroHandler, request: FastifyRequest, reply: FastifyReply, page: PageContext): Promise<boolean> {
  return new Promise((resolve, reject) => {
    handler(request.raw, reply.raw, () => resolve(false), { page }).then(() => resolve(true), reject);
  });
}

/**
 * Astro sends a page's status with its Response's statusText, which stays "OK" when a page sets
 * only the status: a missing listing went out as "HTTP/1.1 404 OK". Each code gets its own phrase.
 * The pages' internal header for the web process (REUSE_FOR_VISITORS_HEADER) never leaves it.
 */
function correctWhatAstroSends(res: ServerResponse): void {
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
  res.writeHead = ((status: number, headers: OutgoingHttpHeaders = {}) => {
    res.statusMessage = STATUS_CODES[status] ?? '';
    const { [REUSE_FOR_VISITORS_HEADER]: _internal, ...sent } = headers;
    return writeHead(status, sent);
  }) as typeof res.writeHead;
}

/**
 * Astro writes server-rendered pages (browse, a listing, a profile) straight to Node's response,
 * past Fastify's compression; on a weak phone signal a 25 kB page should travel as 5. This sends
 * what Astro writes through brotli (quality 5: fast enough per request) or gzip, as the client
 * accepts, once Astro has said the response is text. Returns how to undo it (Astro passed).
 */
export function compressWhatAstroWrites(request: IncomingMessage, res: ServerResponse): () => void {
  const encoding = acceptedEncoding(request.headers);
  const writeHead = res.writeHead.bind(res) as (status: number, headers?: OutgoingHttpHeaders) => ServerResponse;
  res.writeHead = ((status: number, headers: OutgoingHttpHeaders = {}) => {
    const type = String(headers['content-type'] ?? res.getHeader('content-type') ?? '');
    const vary = { ...headers, vary: 'Accept-Encoding' };
    if (!encoding || !COMPRESSIBLE.test(type) || headers['content-encoding'] || status === 204 || status === 304) {
      return writeHead(status, vary);
    }
    const compressor = createCompressor(encoding);
    const write = res.write.bind(res) as (chunk: Buffer) => boolean;
    const end = res.end.bind(res) as () => ServerResponse;
    compressor.on('data', (chunk: Buffer) => write(chunk));
    compressor.on('end', () => end());
    compressor.on('error', (error) => res.destroy(error));
    res.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      const done = rest.find((arg): arg is (error?: Error | null) => void => typeof arg === 'function');
      return compressor.write(chunk, done);
    }) as typeof res.write;
    res.end = ((chunk?: unknown) => {
      if (chunk !== undefined && typeof chunk !== 'function') compressor.end(chunk as string | Uint8Array);
      else compressor.end();
      return res;
    }) as typeof res.end;
    const { 'content-length': _length, ...rest } = vary;
    return writeHead(status, { ...rest, 'content-encoding': encoding });
  }) as typeof res.writeHead;
  return () => {
    res.writeHead = writeHead as typeof res.writeHead;
  };
}

/** Each prerendered page's Content-Security-Policy by route ('/', '/contact', '/404'). */
async function readPagePolicies(frontendDir: string): Promise<Map<string, string>> {
  const file = join(frontendDir, STATIC_HEADERS_FILE);
  const entries = JSON.parse(await readFile(file, 'utf8')) as Array<{ pathname: string; headers: Array<{ key: string; value: string }> }>;
  const policies = new Map<string, string>();
  for (const { pathname, headers } of entries) {
    const policy = headers.find((header) => header.key.toLowerCase() === 'content-security-policy');
    if (policy) policies.set(pathname.replace(/(.)\/$/, '$1'), policy.value);
  }
  return policies;
}

/** Hashed build assets never change; pages revalidate (ETag) so a deploy shows at once. */
export function cacheControlFor(file: string): string {
  if (file.startsWith('_astro/')) return 'public, max-age=31536000, immutable';
  if (file.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

/** `index.html` → `/`, `contact.html` and `contact/index.html` → `/contact`; the 404 page has no route. */
export function pageRoute(file: string): string | undefined {
  if (file === NOT_FOUND_PAGE || file === '404/index.html') return undefined;
  const path = file.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '');
  return `/${path}`;
}

/** Every file under dir, as a path relative to it with '/' separators. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1));
}
