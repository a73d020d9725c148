import { type DynamicModule, Global, Module } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { DATABASE_URL } from '../database/database.module.js';
import { JobHandlers } from './job-handlers.js';
import { JobQueue } from './job-queue.service.js';
import { Outbox } from './outbox.service.js';
import { QueueConnection } from './queue-connection.js';
import { WorkerHost } from './worker-host.js';

@Global()
@Module({})
export class QueueModule {
  /** `runWorkers`: whether this process consumes jobs (worker process, or web process on the default). */
  static forRoot(options: { runWorkers: boolean }): DynamicModule {
    return {
      module: QueueModule,
      providers: [
        {
          provide: QueueConnection,
          inject: [APP_CONFIG, DATABASE_URL],
          useFactory: (config: AppConfig, databaseUrl: string) => new QueueConnection(config.queue, databaseUrl),
        },
        JobQueue,
        JobHandlers,
        Outbox,
        ...(options.runWorkers ? [WorkerHost] : []),
      ],
      exports: [JobQueue, JobHandlers, Outbox],
    };
  }
}
