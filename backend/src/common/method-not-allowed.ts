import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasOverlongPathPart, PATH_PART_TOO_LONG } from './path-limits.js';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** A 405 whose `allowed` methods the filter sends as the Allow header. */
export class MethodNotAllowedException extends HttpException {
  constructor(
    method: string,
    path: string,
    readonly allowed: string[],
  ) {
    super(`${method} is not allowed on ${path}; use ${allowed.join(', ')}.`, HttpStatus.METHOD_NOT_ALLOWED);
  }
}

/**
 * Answers a known API path asked with a method it does not take with 405 and the methods it
 * does take, rather than "no endpoint". OPTIONS is left to its own handlers (CORS preflights).
 * Call before the routes are added: it notes their first two path segments, so a path no route
 * starts with (a scanner's guess) is left to the 404 without a lookup per method.
 */
export function refuseWrongMethods(fastify: FastifyInstance) {
  const heads = new RouteHeads();
  fastify.addHook('onRoute', (route) => heads.add(route.url));
  return (request: FastifyRequest): void => {
    if (request.method === 'OPTIONS') return;
    // Routed already: a route of the API itself takes this method (no need to look it up again).
    if (request.routeOptions.url !== undefined && !isCatchAll(request.params)) return;
    const path = request.url.split('?')[0] ?? '';
    if (!heads.mayMatch(path) || hasApiRoute(fastify, request.method, path)) return;
    // A GET the site's catch-all took because a part is too long for any route's parameter: refused as
    // the router refuses it for every other method, not "use another method".
    if (hasOverlongPathPart(path)) throw new HttpException(PATH_PART_TOO_LONG, HttpStatus.URI_TOO_LONG);
    const allowed = METHODS.filter((method) => hasApiRoute(fastify, method, path));
    if (allowed.length > 0) throw new MethodNotAllowedException(request.method, path, allowed);
  };
}

/** The first two segments of every route's path ("/api/categories" of "/api/categories/:id"). */
class RouteHeads {
  private readonly heads = new Set<string>();
  /** A route with a parameter in its first two segments: any path may match it. */
  private open = false;

  add(url: string): void {
    if (url === '/*') return; // the site's catch-all page route, never an API route (isCatchAll)
    const head = headOf(url);
    if (/[:*]/.test(head)) this.open = true;
    else this.heads.add(head);
  }

  /** False only when no route can match `path` (which the router would decode: "%" paths are always looked up). */
  mayMatch(path: string): boolean {
    return this.open || path.includes('%') || this.heads.has(headOf(path));
  }
}

function headOf(path: string): string {
  const second = path.indexOf('/', 1);
  const third = second === -1 ? -1 : path.indexOf('/', second + 1);
  return third === -1 ? path : path.slice(0, third);
}

/** A route of the API itself, not the site's catch-all page route (a "*" wildcard). */
function hasApiRoute(fastify: FastifyInstance, method: string, path: string): boolean {
  const route = fastify.findRoute({ method: method as 'GET', url: path });
  return route !== null && !isCatchAll(route.params);
}

/** The site's catch-all page route matched (its "*" wildcard), not a route of the API. */
const isCatchAll = (params: unknown) => typeof params === 'object' && params !== null && Object.hasOwn(params, '*');
