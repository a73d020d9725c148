import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/env.js';

/** How often Node checks connections against the header and request timeouts (its default is 30 s). */
const CHECK_INTERVAL_MS = 1_000;

/**
 * Fastify server options that stop a client from holding a connection by sending slowly: the
 * headers must arrive within 10 s and the whole request within REQUEST_TIMEOUT_SECONDS (Node then
 * answers 408 and closes the connection), and an idle kept-alive connection closes after
 * KEEP_ALIVE_TIMEOUT_SECONDS. These bound receiving a request only: socket.io's long-polling
 * requests, which the server holds open while answering, and upgraded WebSockets are unaffected.
 */
export function httpTimeouts({ headersTimeoutMs, requestTimeoutMs, keepAliveTimeoutMs }: AppConfig['http']) {
  return {
    requestTimeout: requestTimeoutMs, // Fastify sets it on the server after creating it (its default, 0, turns Node's off)
    keepAliveTimeout: keepAliveTimeoutMs,
    http: { headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: CHECK_INTERVAL_MS },
  };
}

/**
 * A client that goes away before its answer (a phone losing signal, a timed-out slow sender) is
 * routine, not a fault: one debug line, no stack trace.
 */
export function logClientAborts(fastify: FastifyInstance): void {
  const logger = new Logger('HTTP');
  fastify.addHook('onRequestAbort', async (request) => {
    logger.debug(`${request.method} ${request.url.split('?')[0]} [${request.id}]: the client closed the connection before the answer`);
  });
}
