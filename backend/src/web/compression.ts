import type { IncomingHttpHeaders } from 'node:http';
import type { Transform } from 'node:stream';
import { brotliCompressSync, constants as zlib, createBrotliCompress, createGzip, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * Compression of what the web process sends per response (most of our users are on weak mobile
 * signal): API JSON here, server-rendered pages in frontend.ts and page-reuse.ts. Built files are
 * compressed at build time instead (frontend.ts serves the build's copies).
 */
export type Encoding = 'br' | 'gzip';

/** Responses worth compressing: pages, JSON and text, not images. */
export const COMPRESSIBLE = /^(?:text\/|application\/(?:json|xml|ld\+json|rss\+xml)|image\/svg\+xml)/;

/** Smaller answers go as they are: below a packet, compressing saves nothing on the wire. */
const THRESHOLD_BYTES = 1024;

/** brotli at quality 5: a tenth of the size of a search answer, at well under a millisecond for one. */
const BROTLI_QUALITY = 5;
/**
 * brotli for a page compressed for one request only (a listing page, a member's page): quality 2 takes well under
 * half the CPU of 4 and a third of 5 (on a 36 kB listing page: 0.25, 0.57 and 0.80 ms) for 7% more bytes than 4
 * and 15% more than 5 (9.9, 9.2 and 8.6 kB); gzip at the same CPU (level 1, 0.26 ms) gives 10.4 kB. A listing
 * page is the page visitors open most, and each is compressed for its one request.
 * A page kept for visitors is compressed once, at BROTLI_QUALITY.
 */
const BROTLI_QUALITY_ONCE = 2;
const GZIP_LEVEL = 6;

/** brotli when the client accepts it, else gzip, else none; one it lists with q=0 it refuses (RFC 9110 §12.5.3). */
export function acceptedEncoding(headers: IncomingHttpHeaders): Encoding | undefined {
  const accepted = headers['accept-encoding'];
  if (accepted === undefined) return undefined;
  const offered = new Set<string>();
  for (const item of accepted.split(',')) {
    const [name = '', ...params] = item.split(';').map((part) => part.trim().toLowerCase());
    if (!params.some((param) => /^q=0(?:\.0*)?$/.test(param))) offered.add(name);
  }
  return offered.has('br') ? 'br' : offered.has('gzip') ? 'gzip' : undefined;
}

/** `once`: the body is sent once (not kept and sent again), so it is compressed faster, a little larger. */
export function compressBody(body: string | Buffer, encoding: Encoding, once = false): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: once ? BROTLI_QUALITY_ONCE : BROTLI_QUALITY } })
    : gzipSync(body, { level: GZIP_LEVEL });
}

/** A stream compressor, for a body written in pieces (a member's page as Astro streams it), sent once. */
export function createCompressor(encoding: Encoding): Transform {
  return encoding === 'br'
    ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY_ONCE } })
    : createGzip({ level: GZIP_LEVEL });
}

/**
 * Compresses answers Fastify sends whole (API JSON, /metrics) of at least THRESHOLD_BYTES, as the
 * client accepts. One global onSend hook that returns at once for the small answers most API calls
 * get: @fastify/compress added three hooks to every route (and decompressed request bodies, which
 * json-body.ts now refuses).
 * Streams (files, photos) are left alone: built files come precompressed.
 */
export function compressAnswers(fastify: FastifyInstance): void {
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if ((typeof payload !== 'string' && !Buffer.isBuffer(payload)) || Buffer.byteLength(payload) < THRESHOLD_BYTES) {
      done(null, payload);
      return;
    }
    const status = reply.statusCode;
    if (status === 204 || status === 206 || status === 304 || reply.hasHeader('content-encoding')) {
      done(null, payload);
      return;
    }
    if (!COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) {
      done(null, payload);
      return;
    }
    const vary = reply.getHeader('vary');
    if (vary === undefined) void reply.header('vary', 'Accept-Encoding');
    else if (!/\baccept-encoding\b/i.test(String(vary))) void reply.header('vary', `${String(vary)}, Accept-Encoding`);
    const encoding = acceptedEncoding(request.headers);
    if (!encoding) {
      done(null, payload);
      return;
    }
    const compressed = compressBody(payload, encoding);
    void reply.header('content-encoding', encoding).header('content-length', compressed.length);
    done(null, compressed);
  });
}
