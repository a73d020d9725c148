import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { REUSE_FOR_VISITORS_HEADER } from '../contracts/page-context.js';
import { SESSION_COOKIE } from '../modules/auth/sessions.service.js';
import { acceptedEncoding, COMPRESSIBLE, compressBody, type Encoding } from './compression.js';

/** A page as Astro wrote it, and its compressed copies made on first use. */
interface RenderedPage {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
  encoded: Partial<Record<Encoding, Buffer>>;
}

/** Larger pages are rendered each time: the reuse is for listing pages of a few tens of kB. */
const MAX_PAGE_BYTES = 1024 * 1024;
const HEADERS_NOT_KEPT = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'vary']);

/**
 * Server-rendered pages reused for visitors, as search answers are (listing-search/search-answers.ts): browse's
 * first pages and the category pages repeat all day, and rendering one costs 10-20 times the API call it makes.
 * A page opts in with REUSE_FOR_VISITORS_HEADER; only a GET without a session cookie is answered from it, so
 * a member's page (their saved hearts, their own listings) is always their own. The same URL is answered from
 * the first rendering for `ttlMs`, concurrent requests for it wait for one rendering, and clear() (called when
 * this process's search answers are cleared, after a listing, save or review is written) forgets them all.
 */
export class PageReuse {
  private readonly pages = new Map<string, { expiresAt: number; page: RenderedPage }>();
  private readonly rendering = new Map<string, Promise<RenderedPage | undefined>>();
  /** URLs whose last rendering could not be shared (a listing page, a 404): their visitors do not wait on each other. */
  private readonly unshared = new Set<string>();
  /** Bumped by clear(): a rendering that started before a write is not kept after it. */
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The key a visitor's request may be answered under, or undefined when it must be rendered for them. */
  keyFor(request: IncomingMessage): string | undefined {
    if (this.ttlMs <= 0 || request.method !== 'GET' || !request.url) return undefined;
    if (hasSessionCookie(request.headers.cookie)) return undefined;
    return request.url;
  }

  /** The page kept for `key`, or the one being rendered for it right now; undefined when the caller renders. */
  async ready(key: string): Promise<RenderedPage | undefined> {
    const kept = this.pages.get(key);
    if (kept && kept.expiresAt > this.now()) return kept.page;
    if (kept) this.pages.delete(key);
    return this.unshared.has(key) ? undefined : this.rendering.get(key);
  }

  /**
   * Sends a kept or captured page, compressed as the client accepts (each encoding made once per page; faster
   * for a page not kept, which is compressed for this request alone).
   */
  send(request: IncomingMessage, response: ServerResponse, page: RenderedPage, kept = true): void {
    const type = String(page.headers['content-type'] ?? '');
    const encoding = page.body.length > 0 && COMPRESSIBLE.test(type) ? acceptedEncoding(request.headers) : undefined;
    const body = encoding ? (page.encoded[encoding] ??= compressBody(page.body, encoding, !kept)) : page.body;
    response.statusMessage = STATUS_CODES[page.status] ?? '';
    response.writeHead(page.status, {
      ...page.headers,
      vary: 'Accept-Encoding',
      'content-length': body.length,
      ...(encoding ? { 'content-encoding': encoding } : {}),
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  }

  /**
   * Takes what Astro writes for the visitor's request `key` into memory instead of onto the wire, then sends it
   * with send() (compressed as accepted). A 200 page that opted in, set no cookie and may be shared is kept for
   * the key, and requests waiting for it get it. Returns what to call when Astro did not answer or failed:
   * the response is then as it was.
   */
  capture(key: string, request: IncomingMessage, response: ServerResponse): { abandon(): void } {
    const finish = this.rendered(key, response);
    const writeHead = response.writeHead;
    const write = response.write;
    const end = response.end;
    const restore = () => {
      response.writeHead = writeHead;
      response.write = write;
      response.end = end;
    };
    let status = 200;
    let headers: OutgoingHttpHeaders = {};
    const chunks: Buffer[] = [];
    const collect = (chunk: unknown) => {
      if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
      else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    response.writeHead = ((code: number, given: OutgoingHttpHeaders = {}) => {
      status = code;
      headers = given;
      return response;
    }) as typeof response.writeHead;
    response.write = ((chunk: unknown, ...rest: unknown[]) => {
      collect(chunk);
      const done = rest.find((arg): arg is () => void => typeof arg === 'function');
      if (done) queueMicrotask(done);
      return true;
    }) as typeof response.write;
    response.end = ((...args: unknown[]) => {
      if (typeof args[0] !== 'function') collect(args[0]);
      restore();
      const { [REUSE_FOR_VISITORS_HEADER]: optedIn, ...sent } = headers;
      const page: RenderedPage = { status, headers: keptHeaders(sent), body: Buffer.concat(chunks), encoded: {} };
      const shared = optedIn !== undefined && status === 200 && mayBeShared(sent) && page.body.length <= MAX_PAGE_BYTES;
      finish(shared ? page : undefined);
      this.send(request, response, page, shared);
      return response;
    }) as typeof response.end;
    return {
      abandon: () => {
        restore();
        finish(undefined);
      },
    };
  }

  /** Registers the rendering for `key` that requests may wait on; returns how it ends (idempotent). */
  private rendered(key: string, response: ServerResponse): (page: RenderedPage | undefined) => void {
    const generation = this.generation;
    let resolve: (page: RenderedPage | undefined) => void = () => undefined;
    const pending = new Promise<RenderedPage | undefined>((done) => (resolve = done));
    this.rendering.set(key, pending);
    let finished = false;
    const finish = (page: RenderedPage | undefined) => {
      if (finished) return;
      finished = true;
      if (this.rendering.get(key) === pending) this.rendering.delete(key);
      if (page && generation === this.generation) this.keep(key, page);
      this.rememberUnshared(key, !page);
      resolve(page);
    };
    // A client that leaves mid-page: whoever waits renders for themselves.
    response.once('close', () => finish(undefined));
    return finish;
  }

  /** Forgets every page: after a write in this process, the next visitor's page shows it. */
  clear(): void {
    this.generation++;
    this.pages.clear();
    this.rendering.clear();
  }

  private rememberUnshared(key: string, unshared: boolean): void {
    this.unshared.delete(key);
    if (!unshared) return;
    this.unshared.add(key);
    if (this.unshared.size > this.maxEntries * 4) this.unshared.delete(this.unshared.values().next().value as string);
  }

  private keep(key: string, page: RenderedPage): void {
    this.pages.delete(key);
    this.pages.set(key, { expiresAt: this.now() + this.ttlMs, page });
    if (this.pages.size > this.maxEntries) this.pages.delete(this.pages.keys().next().value as string);
  }
}

/** A member's request: their pages are their own. */
export function hasSessionCookie(header: string | undefined): boolean {
  return header !== undefined && header.split(';').some((pair) => pair.trim().startsWith(`${SESSION_COOKIE}=`));
}

function mayBeShared(headers: OutgoingHttpHeaders): boolean {
  if (headers['set-cookie'] !== undefined) return false;
  return !/\b(?:private|no-store)\b/i.test(String(headers['cache-control'] ?? ''));
}

function keptHeaders(headers: OutgoingHttpHeaders): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !HEADERS_NOT_KEPT.has(name.toLowerCase())));
}
