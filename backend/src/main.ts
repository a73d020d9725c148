import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { prepareDatabase } from './bootstrap/database.js';
import { DependencyUnavailableError, waitForServices } from './bootstrap/dependencies.js';
import { createLogger } from './bootstrap/logger.js';
import { announceStopping, drainRequests, LISTEN_BACKLOG } from './bootstrap/http-connections.js';
import { onShutdownSignal, REQUEST_DRAIN_MS } from './bootstrap/shutdown.js';
import { createWebApp } from './bootstrap/web-app.js';
import { ConfigError, loadConfig } from './config/env.js';

async function main(): Promise<void> {
  const started = Date.now();
  const config = loadConfig();
  Logger.overrideLogger(createLogger(config));
  const logger = new Logger('Fieldmarket');
  await waitForServices(config, logger);
  const database = await prepareDatabase(config, logger);
  const app = await createWebApp(config, database.url);
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  onShutdownSignal(logger, async () => {
    const fastify = app.getHttpAdapter().getInstance();
    // Out of the load balancer's rotation first (SHUTDOWN_NOTICE_SECONDS), then requests being answered
    // finish, new ones told to come back (drainRequests).
    await announceStopping(fastify, config.shutdownNoticeMs);
    await drainRequests(fastify, REQUEST_DRAIN_MS);
    await app.close(); // finishes jobs in flight
    await database.embedded?.stop();
  });
  const workers = config.queue.workersInProcess ? 'workers in this process' : 'workers in their own process';
  logger.log(`Fieldmarket is running at ${config.publicUrl} (${workers}, started in ${Date.now() - started} ms)`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DependencyUnavailableError) {
    console.error(error.message);
  } else {
    console.error('Fieldmarket failed to start:', error instanceof Error ? (error.stack ?? error.message) : error);
  }
  process.exit(1);
});
