import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyRequest } from 'fastify';
import { isFileRouteUrl } from '../common/api-prefix.js';
import { limitApiRequests } from '../common/api-rate-limit.js';
import { acceptJsonBodiesOnly } from '../common/json-body.js';
import { refuseWrongMethods } from '../common/method-not-allowed.js';
import { refuseCrossSiteRequests } from '../common/csrf.js';
import type { AppConfig } from '../config/env.js';
import { RATE_LIMIT_STORE, type RateLimitStore } from '../infra/rate-limit/rate-limit-store.js';

type RequestCheck = (request: FastifyRequest) => void | Promise<void>;

/**
 * What every request meets before a controller: JSON-only bodies whose size and shape are
 * bounded (common/json-body.ts); for /api, in this order, the checks below, each of which
 * answers with its own status by throwing before the body is read; and for the controllers'
 * routes outside /api (/metrics, images), the same 405 for a method they do not take.
 */
export function protectApi(app: NestFastifyApplication, config: AppConfig): void {
  const fastify = app.getHttpAdapter().getInstance();
  acceptJsonBodiesOnly(fastify);
  const rateLimitStore = app.get<RateLimitStore>(RATE_LIMIT_STORE);
  const refuseWrongMethod = refuseWrongMethods(fastify);
  const checks: RequestCheck[] = [
    limitApiRequests(rateLimitStore, config.apiRateLimit),
    refuseWrongMethod,
    refuseCrossSiteRequests(config),
  ];
  // A callback hook, not an async one: the checks are synchronous for most requests, which then make
  // no promise and wait for no microtask.
  fastify.addHook('onRequest', (request, _reply, done) => {
    let pending: Promise<void> | undefined;
    try {
      if (isApiUrl(request.url)) pending = runChecks(checks, request);
      else if (isFileRouteUrl(request.url)) refuseWrongMethod(request);
    } catch (error) {
      done(error as Error);
      return;
    }
    if (pending) pending.then(() => done(), done);
    else done();
  });
}

/** Runs `checks` in order from `from`; returns a promise only when one of them has to wait (the rest run after it). */
function runChecks(checks: RequestCheck[], request: FastifyRequest, from = 0): Promise<void> | undefined {
  for (let i = from; i < checks.length; i++) {
    const pending = checks[i]?.(request);
    if (pending) return pending.then(() => runChecks(checks, request, i + 1));
  }
  return undefined;
}

const isApiUrl = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
