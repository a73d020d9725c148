import { BullModule } from '@nestjs/bullmq';
import { type DynamicModule, Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { QUEUE_NAMES } from '../../jobs/queues.js';
import { DATABASE_URL } from '../database/database.module.js';
import { ormEntities } from '../database/entities.js';
import { DomainEvents } from './domain-events.service.js';
import { JobQueue } from './job-queue.service.js';
import { JobRegistry } from './job-registry.js';
import { JobRunner } from './job-runner.js';
import { JobWorkers } from './job-workers.js';
import { OutboxJob } from './outbox-job.entity.js';
import { OutboxPurgeJob } from './outbox-purge.job.js';
import { Outbox } from './outbox.service.js';
import { BackendQueue, BackendWorker } from './queue-classes.js';
import { QueueConnection } from './queue-connection.js';
import { QUEUE_PROCESSORS } from './queue-processors.js';

/** Evaluated at import, like a decorator's forFeature, so the migration tooling sees the entity. */
const OUTBOX_ENTITIES = ormEntities([OutboxJob]);

// @nestjs/bullmq builds every queue and worker from these: on Redis or PostgreSQL by their connection, closing within a bound.
BullModule.queueClass = BackendQueue;
BullModule.workerClass = BackendWorker;

/** The connection @nestjs/bullmq's shared configuration and JobQueue (which closes it last) both use. */
@Module({
  providers: [
    {
      provide: QueueConnection,
      inject: [APP_CONFIG, DATABASE_URL],
      useFactory: (config: AppConfig, databaseUrl: string) => new QueueConnection(config.queue, databaseUrl),
    },
  ],
  exports: [QueueConnection],
})
class QueueConnectionModule {}

@Global()
@Module({})
export class QueueModule {
  /**
   * `runWorkers`: whether this process consumes jobs (worker process, or web process on the
   * default). Every queue of jobs/queues.ts is registered here, and consumed by its processor.
   */
  static forRoot(options: { runWorkers: boolean }): DynamicModule {
    return {
      module: QueueModule,
      imports: [
        DiscoveryModule,
        OUTBOX_ENTITIES,
        QueueConnectionModule,
        BullModule.forRootAsync({
          imports: [QueueConnectionModule],
          inject: [QueueConnection],
          useFactory: (connection: QueueConnection) => connection.sharedOptions(),
          // Workers are built by JobWorkers at bootstrap, after the job registry's checks.
          extraOptions: { manualRegistration: true },
        }),
        BullModule.registerQueue(...QUEUE_NAMES.map((name) => ({ name }))),
      ],
      providers: [
        JobQueue,
        JobRegistry,
        DomainEvents,
        Outbox,
        OutboxPurgeJob,
        ...(options.runWorkers ? [JobRunner, ...QUEUE_PROCESSORS, JobWorkers] : []),
      ],
      exports: [JobQueue, DomainEvents, Outbox],
    };
  }
}
