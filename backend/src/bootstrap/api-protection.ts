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
  fastify.addHook('onRequest', async (request) => {
    if (isApiUrl(request.url)) for (const check of checks) await check(request);
    else if (isFileRouteUrl(request.url)) refuseWrongMethod(request);
  });
}

const isApiUrl = (url: string) => url === '/api' || url.startsWith('/api/') || url.startsWith('/api?');
