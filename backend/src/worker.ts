import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';
import { prepareDatabase } from './bootstrap/database.js';
import { DependencyUnavailableError, waitForServices } from './bootstrap/dependencies.js';
import { createLogger } from './bootstrap/logger.js';
import { onShutdownSignal } from './bootstrap/shutdown.js';
import { serveWorkerMetrics } from './bootstrap/worker-metrics.js';
import { Metrics } from './infra/metrics/metrics.js';
import { ConfigError, loadConfig } from './config/env.js';

/** The worker process: the domain modules in worker mode, consuming the queues, no HTTP. */
export async function startWorkerProcess(): Promise<void> {
  try {
    const config = loadConfig();
    Logger.overrideLogger(createLogger(config));
    const logger = new Logger('Workers');
    if (!config.database.url) {
      throw new ConfigError('The worker process needs DATABASE_URL (the embedded default runs workers inside the web process).');
    }
    await waitForServices(config, logger);
    const database = await prepareDatabase(config, logger);
    const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, database.url, { kind: 'worker' }), {
      logger: createLogger(config),
    });
    await app.init();
    const port = config.queue.workerMetricsPort;
    const metricsServer = port === undefined ? undefined : await serveWorkerMetrics(config, app.get(Metrics), port, logger);
    onShutdownSignal(logger, async () => {
      await new Promise((resolve) => (metricsServer ? metricsServer.close(resolve) : resolve(undefined)));
      await app.close();
    });
    logger.log(`worker process running (queues on ${config.queue.redisUrl ? 'Redis' : 'PostgreSQL'})`);
  } catch (error) {
    console.error(error instanceof ConfigError || error instanceof DependencyUnavailableError ? error.message : error);
    process.exit(1);
  }
}
