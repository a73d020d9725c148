import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { type Job, UnrecoverableError } from 'bullmq';
import { ThrottledLog } from '../../common/throttled-log.js';
import type { DomainEvent } from '../../events/domain-events.js';
import type { QueueName } from '../../jobs/queues.js';
import { Metrics } from '../metrics/metrics.js';
import { type JobContext, JobRegistry } from './job-registry.js';
import { PermanentFailure } from './permanent-failure.js';

/**
 * Runs one job for the queue processors. A subscriber's job is backed by its outbox entry: it is
 * skipped when the entry is already done, and the entry is marked done (or failing, or failed for
 * good) as the job goes. Each job gets its own ORM context; errors propagate so BullMQ retries.
 */
@Injectable()
export class JobRunner {
  private readonly logger = new Logger('Jobs');
  private readonly problems = new ThrottledLog(this.logger, 60_000);

  constructor(
    @Inject(JobRegistry) private readonly registry: JobRegistry,
    @Inject(MikroORM) private readonly orm: MikroORM,
    @Inject(Metrics) private readonly metrics: Metrics,
  ) {}

  async run(queue: QueueName, job: Job): Promise<void> {
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

  /** A worker's `failed` event: logs the attempt and records it on the job's outbox entry. */
  async recordFailure(job: Job | undefined, error: Error): Promise<void> {
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
}
