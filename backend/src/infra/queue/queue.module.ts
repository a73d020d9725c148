import { ormEntities } from '../database/entities.js';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { DATABASE_URL } from '../database/database.module.js';
import { DomainEvents } from './domain-events.service.js';
import { JobQueue } from './job-queue.service.js';
import { JobRegistry } from './job-registry.js';
import { OutboxJob } from './outbox-job.entity.js';
import { OutboxPurgeJob } from './outbox-purge.job.js';
import { Outbox } from './outbox.service.js';
import { QueueConnection } from './queue-connection.js';
import { WorkerHost } from './worker-host.js';

/** Evaluated at import, like a decorator's forFeature, so the migration tooling sees the entity. */
const OUTBOX_ENTITIES = ormEntities([OutboxJob]);

@Global()
@Module({})
export class QueueModule {
  /** `runWorkers`: whether this process consumes jobs (worker process, or web process on the default). */
  static forRoot(options: { runWorkers: boolean }): DynamicModule {
    return {
      module: QueueModule,
      imports: [DiscoveryModule, OUTBOX_ENTITIES],
      providers: [
        {
          provide: QueueConnection,
          inject: [APP_CONFIG, DATABASE_URL],
          useFactory: (config: AppConfig, databaseUrl: string) => new QueueConnection(config.queue, databaseUrl),
        },
        JobQueue,
        JobRegistry,
        DomainEvents,
        Outbox,
        OutboxPurgeJob,
        ...(options.runWorkers ? [WorkerHost] : []),
      ],
      exports: [JobQueue, DomainEvents, Outbox],
    };
  }
}
