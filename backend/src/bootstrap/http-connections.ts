import { Logger } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
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

/**
 * Connections the kernel holds for the process while it is busy accepting others (Node's default is
 * 511; Linux caps it at net.core.somaxconn). When a web process dies, every socket it held reconnects
 * to the others within the same second or two: with 1,000 of them a queue of 511 overflows and the
 * rest are refused, so the proxy answers 503 and the clients wait for their next attempt.
 */
export const LISTEN_BACKLOG = 4096;

/** What a request arriving while the process stops is told (with 503 and Retry-After). */
export const RESTARTING_MESSAGE = 'Fieldmarket is restarting. Please try again in a moment.';

const drains = new WeakMap<FastifyInstance, (timeoutMs: number) => Promise<void>>();
const notices = new WeakMap<FastifyInstance, () => void>();

/** The probe a load balancer asks before sending a process requests. */
const READINESS_PATH = '/api/health/ready';

/**
 * Counts the requests being answered (socket.io's own aside: its long polls last until it closes),
 * for drainRequests. Closing the app also lets them finish (Nest closes the HTTP server before the
 * ORM, and Fastify waits for them), but it stops listening at once: a request arriving meanwhile
 * had its connection refused. Draining first keeps the port open until they are done, so such a
 * request is told to come back (503, Retry-After), and the log says what the process waits for.
 */
export function trackRequestsInFlight(fastify: FastifyInstance): void {
  const logger = new Logger('HTTP');
  let inFlight = 0;
  let draining = false;
  let stopping = false;
  let idle: (() => void) | undefined;
  fastify.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith('/socket.io/')) return;
    inFlight++;
    response.once('close', () => {
      inFlight--;
      if (inFlight === 0) idle?.();
    });
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    // Stopping but not yet draining: only the readiness probe hears it, so a proxy stops sending requests here.
    if (!draining && !(stopping && request.url.split('?')[0] === READINESS_PATH)) {
      done();
      return;
    }
    void reply.code(503).header('retry-after', '5').header('connection', 'close');
    if (request.url.startsWith('/api/')) void reply.send({ success: false, error: RESTARTING_MESSAGE });
    else void reply.type('text/plain; charset=utf-8').send(RESTARTING_MESSAGE);
  });
  notices.set(fastify, () => {
    stopping = true;
  });
  drains.set(fastify, async (timeoutMs) => {
    stopping = true;
    draining = true;
    if (inFlight === 0) return;
    logger.log(`finishing ${inFlight} request${inFlight === 1 ? '' : 's'} in flight`);
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      idle = resolve;
      timer = setTimeout(() => {
        logger.warn(`${inFlight} request${inFlight === 1 ? '' : 's'} still in flight after ${timeoutMs / 1000} s: closing anyway`);
        resolve();
      }, timeoutMs);
    });
    clearTimeout(timer);
  });
}

/**
 * The first step of stopping behind a load balancer: for `noticeMs` the readiness probe answers 503
 * while every other request is served as usual, so the balancer takes the process out of rotation
 * before drainRequests turns requests away (those 503s are then never seen by a client).
 */
export async function announceStopping(fastify: FastifyInstance, noticeMs: number): Promise<void> {
  if (noticeMs <= 0) return;
  notices.get(fastify)?.();
  new Logger('HTTP').log(`not ready: serving ${noticeMs / 1000} s more while the load balancer moves requests elsewhere`);
  await new Promise((resolve) => setTimeout(resolve, noticeMs));
}

/**
 * Answers new requests with 503 (Retry-After) and waits, up to `timeoutMs`, for those being
 * answered to finish: for a stopping process, before it closes what they use.
 */
export async function drainRequests(fastify: FastifyInstance, timeoutMs: number): Promise<void> {
  await drains.get(fastify)?.(timeoutMs);
}
