import type { FastifyInstance, preSerializationHookHandler } from 'fastify';
import { ok } from './envelope.js';

/** Errors are already envelopes (HttpExceptionFilter); success results are wrapped. */
const wrapSuccess: preSerializationHookHandler<unknown> = (_request, reply, payload, done) => {
  done(null, reply.statusCode >= 400 ? payload : ok(payload));
};

/**
 * Wraps every /api handler's result in `{ success: true, data }` as Fastify serializes it. A
 * route hook, not a Nest interceptor: Nest runs interceptors through rxjs, which cost more per
 * request than the rest of a route like /api/categories. Fastify serializes objects and arrays
 * only, so a handler returns one of those (or nothing, for a 204).
 */
export function envelopeApiResults(fastify: FastifyInstance, prefix = '/api/'): void {
  fastify.addHook('onRoute', (route) => {
    if (!route.url.startsWith(prefix)) return;
    const existing = route.preSerialization;
    route.preSerialization = [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), wrapSuccess];
  });
}
