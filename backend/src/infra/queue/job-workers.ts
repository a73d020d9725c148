import { BullRegistrar } from '@nestjs/bullmq';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { ThrottledLog } from '../../common/throttled-log.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { QUEUE_NAMES } from '../../jobs/queues.js';
import { JobQueue } from './job-queue.service.js';
import { JobRegistry } from './job-registry.js';
import { BackendWorker } from './queue-classes.js';
import { QUEUE_PROCESSORS, type QueueProcessor } from './queue-processors.js';

/** Schedules live in the queue backend; re-declaring them now and then restores them after it lost its data. */
const RESCHEDULE_EVERY_MS = 5 * 60_000;

/**
 * Runs the job workers: inside the web process on the embedded default, or as the worker process
 * when REDIS_URL is set. @nestjs/bullmq builds a worker per @Processor (queue-processors.ts), but
 * only when asked (`manualRegistration`): here, at bootstrap, after the job registry has checked
 * every handler at module init. At shutdown the workers stop taking jobs and running ones finish
 * (bounded, BackendWorker.close) before the database closes.
 */
@Injectable()
export class JobWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly problems = new ThrottledLog(this.logger, 60_000);
  private processors: QueueProcessor[] = [];
  private rescheduleTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(BullRegistrar) private readonly registrar: BullRegistrar,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(JobRegistry) private readonly registry: JobRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.registrar.register();
    this.processors = QUEUE_PROCESSORS.map((processor) => this.moduleRef.get(processor));
    for (const { worker } of this.processors) {
      if (worker instanceof BackendWorker) worker.lockJobsFor(this.config.queue.jobLeaseSeconds * 1000);
    }
    for (const processor of this.processors) void processor.worker.run();
    await this.declareSchedules();
    this.rescheduleTimer = setInterval(() => void this.declareSchedules(), RESCHEDULE_EVERY_MS);
    this.rescheduleTimer.unref();
    this.logger.log(`workers running for queues: ${QUEUE_NAMES.join(', ')} (${this.jobs.backendName})`);
  }

  private async declareSchedules(): Promise<void> {
    try {
      for (const queue of QUEUE_NAMES) {
        const schedules = this.registry.allSchedules().filter((s) => s.queue === queue);
        for (const { name, everyMs } of schedules) {
          await this.jobs.schedule(queue, name, typeof everyMs === 'function' ? everyMs(this.config) : everyMs);
        }
        await this.jobs.removeSchedulersExcept(queue, new Set(schedules.map((s) => s.name)));
      }
    } catch (error) {
      this.problems.warn('schedules', `could not declare the job schedules, will retry: ${String(error)}`);
    }
  }

  /** Stops taking jobs, lets running ones finish (bounded), before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.rescheduleTimer);
    await Promise.all(this.processors.map((processor) => processor.worker.close()));
    this.processors = [];
  }
}
