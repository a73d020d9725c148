import { MikroORM } from '@mikro-orm/postgresql';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import { AppModule } from '../app.module.js';
import type { Clock } from '../infra/clock/clock.js';
import { useApiPrefix } from '../common/api-prefix.js';
import { Metrics } from '../infra/metrics/metrics.js';
import { envelopeApiResults } from '../common/envelope.hook.js';
import { HttpExceptionFilter, renderFrameworkError } from '../common/http-exception.filter.js';
import { MAX_PATH_PARAMETER_LENGTH } from '../common/path-limits.js';
import { acceptMultipartOnFileRoutes } from '../common/multipart-body.js';
import { acceptOneClickUnsubscribe } from '../common/one-click-body.js';
import { createValidationPipe } from '../common/validation.js';
import type { AppConfig } from '../config/env.js';
import { fastifyTrustProxy } from '../config/trust-proxy.js';
import { provideRequestContexts } from '../infra/database/request-context.js';
import { BusIoAdapter, type RealtimeBus } from '../infra/realtime/realtime-bus.js';
import { REALTIME_BUS } from '../infra/realtime/realtime.module.js';
import { mountFrontend } from '../web/frontend.js';
import { PageReuse } from '../web/page-reuse.js';
import { SearchAnswers } from '../modules/listings/listing-search/search-answers.js';
import { ProfileService } from '../modules/profile/profile.service.js';
import { compressAnswers } from '../web/compression.js';
import { registerSecurityHeaders } from '../web/security-headers.js';
import { protectApi } from './api-protection.js';
import { httpTimeouts, logClientAborts, trackRequestsInFlight } from './http-connections.js';
import { logApiRequests } from './access-log.js';
import { createLogger } from './logger.js';
import { requestIdOf, sendRequestIds } from './request-id.js';

/** Builds the web application (API, socket.io, pages) without listening; used by main and tests. */
export async function createWebApp(config: AppConfig, databaseUrl: string, clock?: Clock): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: config.bodyLimitBytes,
    ...httpTimeouts(config.http),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PATH_PARAMETER_LENGTH },
    frameworkErrors: renderFrameworkError,
    genReqId: requestIdOf,
  });
  const logger = createLogger(config);
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, databaseUrl, { kind: 'web', runWorkers: config.queue.workersInProcess }, clock),
    adapter,
    // No body parsers from Nest (it would also accept form posts): protectApi installs a JSON-only one.
    { logger, abortOnError: false, bodyParser: false },
  );
  useApiPrefix(app);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(config.bodyLimitBytes));
  if (config.corsOrigins.length > 0) app.enableCors({ origin: config.corsOrigins });

  const fastify = app.getHttpAdapter().getInstance();
  trackRequestsInFlight(fastify);
  envelopeApiResults(fastify);
  app.get(Metrics).observeHttp(fastify);
  provideRequestContexts(fastify, app.get(MikroORM));
  compressAnswers(fastify);
  await fastify.register(fastifyCookie);
  registerSecurityHeaders(fastify, config);
  protectApi(app, config);
  await acceptMultipartOnFileRoutes(fastify);
  acceptOneClickUnsubscribe(fastify);
  logClientAborts(fastify);
  sendRequestIds(fastify);
  logApiRequests(fastify, logger);

  app.useWebSocketAdapter(new BusIoAdapter(app, app.get<RealtimeBus>(REALTIME_BUS)));
  if (config.frontendDir) {
    const pageReuse = new PageReuse(config.searchCacheMs, 500);
    app.get(SearchAnswers).onCleared(() => pageReuse.clear());
    app.get(ProfileService).onPublicProfileChanged(() => pageReuse.clear());
    await mountFrontend(fastify, config.frontendDir, new URL(config.publicUrl).origin, pageReuse);
  }
  await app.init();
  return app;
}
