import { getQueueToken } from '@nestjs/bullmq';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import type { Job, JobState, Queue } from 'bullmq';
import { withTimeout } from '../../common/timeout.js';
import { JOB_OPTIONS, QUEUE_NAMES, type QueueName } from '../../jobs/queues.js';
import { QUEUE_CLOSE_TIMEOUT_MS } from './queue-classes.js';
import { QueueConnection } from './queue-connection.js';

export interface QueueCounts {
  queue: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

/** Every call to the queue backend is bounded: a Redis that is down must never hold a caller for long. */
const CALL_TIMEOUT_MS = 5_000;

/**
 * The one place that talks to BullMQ queues: enqueue jobs, look them up, schedule periodic work,
 * count. The queues are those @nestjs/bullmq registered (BullModule.registerQueue in QueueModule).
 */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('Queue');
  private readonly queues = new Map<QueueName, Queue>();

  constructor(
    @Inject(QueueConnection) private readonly connection: QueueConnection,
    @Inject(ModuleRef) private readonly moduleRef: ModuleRef,
  ) {}

  get backendName(): 'redis' | 'postgres' {
    return this.connection.backendName;
  }

  /** Adds a job; `jobId` makes re-adding the same job a no-op while it exists. */
  async enqueue(queue: QueueName, name: string, data: unknown, jobId: string): Promise<void> {
    await this.bounded(this.queue(queue).add(name, data, { ...JOB_OPTIONS, jobId }), `adding job ${name}`);
  }

  /** The job's state, or undefined when the backend has no such job (never added, removed, or lost). */
  async stateOf(queue: QueueName, jobId: string): Promise<JobState | 'unknown' | undefined> {
    const job = await this.bounded(this.queue(queue).getJob(jobId), `looking up job ${jobId}`);
    if (!job) return undefined;
    return this.bounded(job.getState(), `reading the state of job ${jobId}`);
  }

  async failedJobs(queue: QueueName, limit = 50): Promise<Job[]> {
    return this.bounded(this.queue(queue).getFailed(0, limit - 1), `listing failed jobs of ${queue}`);
  }

  /**
   * Jobs that failed: for good (state failed) and those waiting for their next attempt after a
   * failure (delayed, with an error), newest first.
   */
  async troubledJobs(queue: QueueName, limit = 50): Promise<Array<{ job: Job; state: 'failed' | 'retrying' }>> {
    const [failed, delayed] = await Promise.all([
      this.bounded(this.queue(queue).getFailed(0, limit - 1), `listing failed jobs of ${queue}`),
      this.bounded(this.queue(queue).getDelayed(0, limit - 1), `listing delayed jobs of ${queue}`),
    ]);
    return [
      ...failed.filter(Boolean).map((job) => ({ job, state: 'failed' as const })),
      ...delayed.filter((job) => job && job.attemptsMade > 0 && job.failedReason).map((job) => ({ job, state: 'retrying' as const })),
    ]
      .sort((a, b) => (b.job.finishedOn ?? b.job.timestamp) - (a.job.finishedOn ?? a.job.timestamp))
      .slice(0, limit);
  }

  /** Runs a failed job again now (a job waiting for its next attempt is run at once); false when there is no such job. */
  async retry(queue: QueueName, jobId: string): Promise<'retried' | 'not-failed' | 'missing'> {
    const job = await this.bounded(this.queue(queue).getJob(jobId), `looking up job ${jobId}`);
    if (!job) return 'missing';
    const state = await this.bounded(job.getState(), `reading the state of job ${jobId}`);
    if (state === 'failed') await this.bounded(job.retry('failed'), `retrying job ${jobId}`);
    else if (state === 'delayed') await this.bounded(job.promote(), `promoting job ${jobId}`);
    else return 'not-failed';
    return 'retried';
  }

  async remove(queue: QueueName, jobId: string): Promise<boolean> {
    const job = await this.bounded(this.queue(queue).getJob(jobId), `looking up job ${jobId}`);
    if (!job) return false;
    await this.bounded(job.remove(), `removing job ${jobId}`);
    return true;
  }

  /** Creates or updates a repeating job; BullMQ runs one job per interval across every process. */
  async schedule(queue: QueueName, name: string, everyMs: number): Promise<void> {
    await this.bounded(
      this.queue(queue).upsertJobScheduler(name, { every: everyMs }, { name, opts: { ...JOB_OPTIONS, attempts: 3 } }),
      `scheduling ${name}`,
    );
  }

  async schedulers(queue: QueueName): Promise<Array<{ name: string; everyMs: number | undefined }>> {
    const schedulers = await this.bounded(this.queue(queue).getJobSchedulers(), `listing schedulers of ${queue}`);
    return schedulers.map((s) => ({ name: s.key, everyMs: s.every ?? undefined }));
  }

  /** Removes schedulers no job declares any more (a job renamed or removed in a deploy). */
  async removeSchedulersExcept(queue: QueueName, keep: ReadonlySet<string>): Promise<void> {
    for (const { name: id } of await this.schedulers(queue)) {
      if (!keep.has(id)) {
        await this.bounded(this.queue(queue).removeJobScheduler(id), `removing scheduler ${id}`);
        this.logger.log(`removed the schedule of "${id}", which no job declares any more`);
      }
    }
  }

  /** Workers connected to the queue, across every process. */
  async workerCount(queue: QueueName): Promise<number> {
    return this.bounded(this.queue(queue).getWorkersCount(), `counting workers of ${queue}`);
  }

  async counts(): Promise<QueueCounts[]> {
    return Promise.all(
      QUEUE_NAMES.map(async (queue) => {
        const c = await this.bounded(
          this.queue(queue).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed'),
          `counting jobs of ${queue}`,
        );
        return {
          queue,
          waiting: c.waiting ?? 0,
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: c.failed ?? 0,
          completed: c.completed ?? 0,
        };
      }),
    );
  }

  private bounded<T>(promise: Promise<T>, what: string): Promise<T> {
    return withTimeout(
      promise,
      CALL_TIMEOUT_MS,
      `the ${this.backendName} queue backend did not answer within ${CALL_TIMEOUT_MS} ms (${what})`,
    );
  }

  /** The registered queue of that name, looked up once (every enqueue, count and schedule asks). */
  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) this.queues.set(name, (queue = this.moduleRef.get<Queue>(getQueueToken(name), { strict: false })));
    return queue;
  }

  /** Closes every queue (each close is bounded, BackendQueue), then the connection they shared. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(QUEUE_NAMES.map((name) => this.queue(name).close()));
    await withTimeout(this.connection.close(), QUEUE_CLOSE_TIMEOUT_MS, 'queue pool close timed out').catch(() => undefined);
  }
}
