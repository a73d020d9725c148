import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import { AppModule } from '../app.module.js';
import { EnvelopeInterceptor } from '../common/envelope.interceptor.js';
import { HttpExceptionFilter } from '../common/http-exception.filter.js';
import { createValidationPipe } from '../common/validation.js';
import type { AppConfig } from '../config/env.js';
import { fastifyTrustProxy } from '../config/trust-proxy.js';
import { BusIoAdapter, type RealtimeBus } from '../infra/realtime/realtime-bus.js';
import { REALTIME_BUS } from '../infra/realtime/realtime.module.js';
import { mountFrontend } from '../web/frontend.js';
import { registerSecurityHeaders } from '../web/security-headers.js';
import { protectApi } from './api-protection.js';
import { httpTimeouts, logClientAborts } from './http-connections.js';
import { createLogger } from './logger.js';

/** Builds the web application (API, socket.io, pages) without listening; used by main and tests. */
export async function createWebApp(config: AppConfig, databaseUrl: string): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    ...httpTimeouts(config.http),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true },
    genReqId: (req: { headers: Record<string, string | string[] | undefined> }) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : randomUUID();
    },
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, databaseUrl, { kind: 'web', runWorkers: config.queue.workersInProcess }),
    adapter,
    // No body parsers from Nest (it would also accept form posts): protectApi installs a JSON-only one.
    { logger: createLogger(config), abortOnError: false, bodyParser: false },
  );
  app.setGlobalPrefix('api');
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(config.bodyLimitBytes));
  app.useGlobalInterceptors(new EnvelopeInterceptor());
  if (config.corsOrigins.length > 0) app.enableCors({ origin: config.corsOrigins });

  const fastify = app.getHttpAdapter().getInstance();
  // JSON compressed (brotli or gzip): most of our users are on weak mobile signal. Pages and scripts come
  // precompressed from the build instead (web/frontend.ts).
  await fastify.register(fastifyCompress, { threshold: 1024 });
  await registerSecurityHeaders(fastify, config);
  await protectApi(app, config);
  logClientAborts(fastify);
  fastify.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  fastify.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/api/')) {
      Logger.log(
        `${request.method} ${request.url.split('?')[0]} ${reply.statusCode} ${reply.elapsedTime.toFixed(0)}ms [${request.id}]`,
        'HTTP',
      );
    }
  });

  app.useWebSocketAdapter(new BusIoAdapter(app, app.get<RealtimeBus>(REALTIME_BUS)));
  if (config.frontendDir) await mountFrontend(fastify, config.frontendDir);
  await app.init();
  return app;
}
