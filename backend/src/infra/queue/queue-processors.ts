import { Inject, Injectable, type Type } from '@nestjs/common';
import { OnWorkerEvent, Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job, WorkerOptions } from 'bullmq';
import { QUEUES, QUEUE_NAMES, retryDelayMs, type QueueName } from '../../jobs/queues.js';
import { JobRunner } from './job-runner.js';

/**
 * A queue's processor: hands each job to the JobRunner and each failure to its record. Workers
 * start stopped (`autorun: false`); JobWorkers runs them once the job registry has checked the
 * handlers at boot.
 */
export abstract class QueueProcessor extends WorkerHost {
  constructor(
    private readonly runner: JobRunner,
    readonly queue: QueueName,
  ) {
    super();
  }

  process(job: Job): Promise<void> {
    return this.runner.run(this.queue, job);
  }

  @OnWorkerEvent('failed')
  onFailed(job: Job | undefined, error: Error): Promise<void> {
    return this.runner.recordFailure(job, error);
  }
}

function workerOptions(queue: QueueName): Omit<WorkerOptions, 'connection'> {
  return {
    concurrency: QUEUES[queue].concurrency,
    autorun: false,
    // A worker killed mid-job leaves it "stalled"; it goes back to the queue a few times before failing.
    maxStalledCount: 5,
    settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade) },
  };
}

/** The @Processor of one queue, with that queue's concurrency and the shared retry back-off. */
function processorFor(queue: QueueName): Type<QueueProcessor> {
  @Processor(queue, workerOptions(queue))
  @Injectable()
  class QueueProcessorOf extends QueueProcessor {
    constructor(@Inject(JobRunner) runner: JobRunner) {
      super(runner, queue);
    }
  }
  // Nest names providers by class; one name per queue keeps its messages clear.
  Object.defineProperty(QueueProcessorOf, 'name', { value: `QueueProcessor(${queue})` });
  return QueueProcessorOf;
}

/** One processor per queue of jobs/queues.ts: a queue declared there is consumed with no other change. */
export const QUEUE_PROCESSORS: ReadonlyArray<Type<QueueProcessor>> = QUEUE_NAMES.map(processorFor);
