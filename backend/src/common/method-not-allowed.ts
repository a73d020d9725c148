import { HttpException, HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';

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
 */
export function refuseWrongMethods(fastify: FastifyInstance) {
  return (request: FastifyRequest): void => {
    if (request.method === 'OPTIONS') return;
    const path = request.url.split('?')[0] ?? '';
    if (hasApiRoute(fastify, request.method, path)) return;
    const allowed = METHODS.filter((method) => hasApiRoute(fastify, method, path));
    if (allowed.length > 0) throw new MethodNotAllowedException(request.method, path, allowed);
  };
}

/** A route of the API itself, not the site's catch-all page route (a "*" wildcard). */
function hasApiRoute(fastify: FastifyInstance, method: string, path: string): boolean {
  const route = fastify.findRoute({ method: method as 'GET', url: path });
  return route !== null && !Object.hasOwn(route.params ?? {}, '*');
}
