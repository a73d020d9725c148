import { Inject, Injectable, NotFoundException, ConflictException } from '@nestjs/common';
import { QUEUE_NAMES, type QueueName } from '../../jobs/queues.js';
import { JobQueue } from '../../infra/queue/job-queue.service.js';
import { Outbox } from '../../infra/queue/outbox.service.js';
import type { User } from '../users/user.entity.js';
import type { QueueDashboardResponse } from './dto/staff.response.js';
import { StaffService } from './staff.service.js';
import { EntityManager } from '@mikro-orm/postgresql';

/**
 * The queue dashboard, on BullMQ's Queue API, so it works the same on both backends (Redis, and
 * BullMQ's PostgreSQL backend of the embedded default). Retrying or removing a job also updates
 * its outbox entry, so the health check and the outbox agree with the queue.
 */
@Injectable()
export class StaffQueues {
  constructor(
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(StaffService) private readonly staff: StaffService,
    @Inject(EntityManager) private readonly em: EntityManager,
  ) {}

  async overview(): Promise<QueueDashboardResponse> {
    const [queues, troubled] = await Promise.all([
      this.jobs.counts(),
      Promise.all(QUEUE_NAMES.map(async (queue) => (await this.jobs.troubledJobs(queue)).map((entry) => ({ queue, ...entry })))),
    ]);
    return {
      backend: this.jobs.backendName,
      queues,
      failed: troubled.flat().map(({ queue, job, state }) => ({
        id: String(job.id),
        queue,
        name: job.name,
        error: job.failedReason ?? '',
        attempts: job.attemptsMade,
        state,
        failed_at: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
      })),
    };
  }

  async retry(me: User, queue: string, jobId: string): Promise<void> {
    const name = this.queueName(queue);
    const outcome = await this.jobs.retry(name, jobId);
    if (outcome === 'missing') throw new NotFoundException('No such job in this queue (it may have been removed).');
    if (outcome === 'not-failed') throw new ConflictException('This job has not failed, so there is nothing to retry.');
    await this.outbox.reopen(jobId);
    await this.staff.record(this.em.fork(), me, 'job.retry', 'job', `${name}/${jobId}`);
  }

  async remove(me: User, queue: string, jobId: string): Promise<void> {
    const name = this.queueName(queue);
    if (!(await this.jobs.remove(name, jobId))) throw new NotFoundException('No such job in this queue (it may have been removed).');
    await this.outbox.abandon(jobId, `removed from the queue by ${me.fullName}`);
    await this.staff.record(this.em.fork(), me, 'job.remove', 'job', `${name}/${jobId}`);
  }

  private queueName(queue: string): QueueName {
    if (!(QUEUE_NAMES as string[]).includes(queue)) throw new NotFoundException(`There is no queue "${queue}".`);
    return queue as QueueName;
  }
}
