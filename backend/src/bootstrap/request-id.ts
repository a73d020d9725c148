import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

const CLIENT_REQUEST_ID = /^[\w-]{1,64}$/;

/** Fastify's genReqId: the caller's X-Request-Id when it is a plain token (a proxy's trace id), else a new UUID. */
export function requestIdOf(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : randomUUID();
}

/**
 * Every response carries its request id in X-Request-Id, so a user's report can be matched with
 * the access log. Set on the raw response as the request starts, so error responses and pages
 * Astro renders on a hijacked reply carry it too.
 */
export function sendRequestIds(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.raw.setHeader('x-request-id', request.id);
    done();
  });
}
