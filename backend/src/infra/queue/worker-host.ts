import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { type Job, UnrecoverableError, type Worker } from 'bullmq';
import { ThrottledLog } from '../../common/throttled-log.js';
import { withTimeout } from '../../common/timeout.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { QUEUES, QUEUE_NAMES } from '../../jobs/queues.js';
import { JobQueue } from './job-queue.service.js';
import { type JobContext, JobRegistry } from './job-registry.js';
import { QueueConnection } from './queue-connection.js';
import { Metrics } from '../metrics/metrics.js';
import { PermanentFailure } from './permanent-failure.js';

/** How long running jobs may take to finish at shutdown before they are abandoned (they run again later). */
const DRAIN_TIMEOUT_MS = 10_000;
/** Schedules live in the queue backend; re-declaring them now and then restores them after it lost its data. */
const RESCHEDULE_EVERY_MS = 5 * 60_000;

/**
 * Runs the job workers: inside the web process on the embedded default, or as the worker
 * process when REDIS_URL is set. A subscriber's job is backed by its outbox entry: it is skipped
 * when the entry is already done, and the entry is marked done (or failing, or failed for good)
 * as the job goes. Each job gets its own ORM context; errors propagate so BullMQ retries.
 */
@Injectable()
export class WorkerHost implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly problems = new ThrottledLog(this.logger, 60_000);
  private readonly workers: Worker[] = [];
  private rescheduleTimer: NodeJS.Timeout | undefined;

  constructor(
    @Inject(QueueConnection) private readonly connection: QueueConnection,
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(JobRegistry) private readonly registry: JobRegistry,
    @Inject(MikroORM) private readonly orm: MikroORM,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    for (const queue of QUEUE_NAMES) {
      const worker = this.connection.createWorker(queue, (job) => this.timed(queue, job), QUEUES[queue].concurrency);
      worker.on('failed', (job, error) => void this.recordFailure(job, error));
      void worker.run();
      this.workers.push(worker);
    }
    await this.declareSchedules();
    this.rescheduleTimer = setInterval(() => void this.declareSchedules(), RESCHEDULE_EVERY_MS);
    this.rescheduleTimer.unref();
    this.logger.log(`workers running for queues: ${QUEUE_NAMES.join(', ')} (${this.connection.backendName})`);
  }

  private async declareSchedules(): Promise<void> {
    try {
      for (const queue of QUEUE_NAMES) {
        const schedules = this.registry.allSchedules().filter((s) => s.queue === queue);
        for (const schedule of schedules) await this.jobs.schedule(queue, schedule.name, schedule.everyMs);
        await this.jobs.removeSchedulersExcept(queue, new Set(schedules.map((s) => s.name)));
      }
    } catch (error) {
      this.problems.warn('schedules', `could not declare the job schedules, will retry: ${String(error)}`);
    }
  }

  private async timed(queue: string, job: Job): Promise<void> {
    const started = performance.now();
    let outcome: 'completed' | 'failed' = 'failed';
    try {
      await this.process(job);
      outcome = 'completed';
    } finally {
      this.metrics.observeJob(queue, job.name, outcome, (performance.now() - started) / 1000);
    }
  }

  private async process(job: Job): Promise<void> {
    const context: JobContext = { jobId: String(job.id), attempt: job.attemptsMade + 1 };
    const schedule = this.registry.schedule(job.name);
    if (schedule) {
      await RequestContext.create(this.orm.em, () => schedule.run(context));
      return;
    }
    const subscriber = this.registry.subscriber(job.name);
    if (!subscriber) throw new UnrecoverableError(`No handler for job "${job.name}" in this version`);
    const [entry] = await this.sql<{ completed_at: Date | null }>(`select completed_at from outbox_job where id = ?`, [context.jobId]);
    if (!entry) {
      this.logger.warn(`${job.name} [${job.id}]: its outbox entry no longer exists (purged); skipping`);
      return;
    }
    if (entry.completed_at) return; // Delivered twice (a re-enqueue after a lost ack): already done.
    try {
      await RequestContext.create(this.orm.em, () => subscriber.run(job.data as DomainEvent, context));
    } catch (error) {
      // Retrying cannot help (a recipient refused for good): failed at once, for an operator.
      if (error instanceof PermanentFailure) throw new UnrecoverableError(error.message);
      throw error;
    }
    await this.sql(`update outbox_job set completed_at = now(), attempts = ?, last_error = null where id = ?`, [
      context.attempt,
      context.jobId,
    ]);
  }

  private async recordFailure(job: Job | undefined, error: Error): Promise<void> {
    if (!job) return;
    const attempts = job.opts.attempts ?? 1;
    const final = job.attemptsMade >= attempts || error instanceof UnrecoverableError;
    const message = `${job.name} [${job.id}] attempt ${job.attemptsMade}/${attempts} failed: ${error.message}`;
    if (final) this.logger.error(`${message}; giving up, the job stays in the failed list for an operator to retry`);
    else this.logger.warn(`${message}; will retry`);
    if (this.registry.schedule(job.name)) return;
    await this.sql(
      `update outbox_job set attempts = ?, last_error = ?, failed_at = case when ? then now() else failed_at end
        where id = ? and completed_at is null`,
      [job.attemptsMade, error.message.slice(0, 2_000), final, String(job.id)],
    ).catch((cause: unknown) => this.problems.warn('record-failure', `could not record a job failure: ${String(cause)}`));
  }

  private sql<T extends object>(query: string, params: unknown[]): Promise<T[]> {
    return this.orm.em.getConnection().execute<T[]>(query, params);
  }

  /** Stops taking jobs, lets running ones finish (bounded), before the database closes. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.rescheduleTimer);
    await Promise.all(
      this.workers.map((worker) =>
        withTimeout(worker.close(), DRAIN_TIMEOUT_MS, 'worker drain timed out').catch(async () => {
          this.logger.warn(`jobs on "${worker.name}" did not finish within ${DRAIN_TIMEOUT_MS} ms; they will run again`);
          await withTimeout(worker.close(true), 2_000, 'forced close timed out').catch(() => worker.disconnect());
        }),
      ),
    );
    this.workers.length = 0;
  }
}
