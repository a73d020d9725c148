import type { FastifyInstance } from 'fastify';
import type { AppLogger } from './logger.js';

/** Probed every few seconds by load balancers and every open page: their successes are logged at debug only. */
const PROBE_PATHS: ReadonlySet<string> = new Set(['/api/health', '/api/health/live', '/api/health/ready']);

/**
 * The access log: one line per /api request once its response has gone, with the method, the
 * path without its query (which may carry personal data), the status, the milliseconds taken and
 * the request id the client received in X-Request-Id.
 */
export function logApiRequests(fastify: FastifyInstance, logger: AppLogger): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const { url } = request;
    if (url.startsWith('/api/')) {
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      const status = reply.statusCode;
      const level = status < 400 && PROBE_PATHS.has(path.endsWith('/') ? path.slice(0, -1) : path) ? 'debug' : 'log';
      if (logger.isEnabled(level)) {
        const ms = Math.round(reply.elapsedTime * 10) / 10;
        const { id, method } = request;
        logger.write(level, 'HTTP', `${method} ${path} ${status} ${ms}ms [${id}]`, { requestId: id, method, path, status, ms });
      }
    }
    done();
  });
}
