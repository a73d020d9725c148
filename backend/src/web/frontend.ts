import { createReadStream, existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

type AstroHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => Promise<void>;

const API_PREFIXES = ['/api/', '/socket.io/'];
const NOT_FOUND_PAGE = '404.html';

/**
 * Serves the built Astro site from the web process:
 *  - `/_astro/*` and other files in dist/client, with long caching for hashed assets;
 *  - each prerendered page at its clean path (`contact.html` or `contact/index.html` → `/contact`);
 *  - anything else through Astro's SSR handler (pages with `prerender = false`), and finally
 *    the prerendered 404 page with status 404. `/api` and `/socket.io` never reach Astro.
 */
export async function mountFrontend(fastify: FastifyInstance, frontendDir: string): Promise<void> {
  const clientDir = join(frontendDir, 'client');
  const serverEntry = join(frontendDir, 'server', 'entry.mjs');
  if (!existsSync(join(clientDir, NOT_FOUND_PAGE)) || !existsSync(serverEntry)) {
    throw new Error(`No built frontend in ${frontendDir}: run the build (./fieldmarket build) or set FRONTEND_DIR=none`);
  }
  const { handler } = (await import(pathToFileURL(serverEntry).href)) as { handler: AstroHandler };

  await fastify.register(fastifyStatic, {
    root: clientDir,
    wildcard: false,
    index: false,
    redirect: false,
    setHeaders: (res, path) => res.header('cache-control', cacheControlFor(relative(clientDir, path))),
  });

  for (const file of await listPages(clientDir)) {
    const route = pageRoute(file);
    if (route === undefined) continue;
    fastify.get(route, (_request, reply) => sendPage(reply, file, 200));
  }

  const fallback = (request: FastifyRequest, reply: FastifyReply): void => {
    const path = request.url.split('?')[0] ?? '/';
    if (path === '/api' || path === '/socket.io' || API_PREFIXES.some((prefix) => path.startsWith(prefix))) {
      void reply.status(404).send({ success: false, error: `No API endpoint at ${request.method} ${path}` });
      return;
    }
    reply.hijack();
    void handler(request.raw, reply.raw, () => {
      void streamNotFound(reply);
    });
  };
  fastify.get('/*', fallback);

  function streamNotFound(reply: FastifyReply): void {
    // The reply was hijacked for Astro; answer on the raw response.
    reply.raw.writeHead(404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    createReadStream(join(clientDir, NOT_FOUND_PAGE))
      .on('error', () => reply.raw.end('Page not found'))
      .pipe(reply.raw);
  }
}

function sendPage(reply: FastifyReply, file: string, status: number) {
  return reply.status(status).sendFile(file);
}

/** Hashed build assets never change; pages revalidate (ETag) so a deploy shows at once. */
export function cacheControlFor(file: string): string {
  if (file.startsWith(`_astro${sep}`)) return 'public, max-age=31536000, immutable';
  if (file.endsWith('.html')) return 'no-cache';
  return 'public, max-age=3600';
}

/** `index.html` → `/`, `contact.html` and `contact/index.html` → `/contact`; the 404 page has no route. */
export function pageRoute(file: string): string | undefined {
  if (file === NOT_FOUND_PAGE || file === '404/index.html') return undefined;
  const path = file.replace(/(^|\/)index\.html$/, '').replace(/\.html$/, '');
  return `/${path}`;
}

async function listPages(dir: string, prefix = ''): Promise<string[]> {
  const pages: string[] = [];
  for (const entry of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory() && entry.name !== '_astro') pages.push(...(await listPages(dir, path)));
    else if (entry.isFile() && entry.name.endsWith('.html')) pages.push(path);
  }
  return pages;
}
