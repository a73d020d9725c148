import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { Queue } from 'bullmq';
import { DEFAULT_JOB_OPTIONS, JOB_QUEUES, QUEUE_NAMES, type JobName, type JobPayloads, type QueueName } from '../../jobs/job-map.js';
import { QueueConnection } from './queue-connection.js';

export interface QueueCounts {
  queue: QueueName;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  completed: number;
}

/** The one place that talks to BullMQ queues: enqueue jobs and read their counts. */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly queues = new Map<QueueName, Queue>();

  constructor(@Inject(QueueConnection) private readonly connection: QueueConnection) {}

  get backendName(): 'redis' | 'postgres' {
    return this.connection.backendName;
  }

  /** Adds a job; `jobId` makes re-adding the same job a no-op. */
  async enqueue<N extends JobName>(name: N, payload: JobPayloads[N], jobId: string): Promise<void> {
    await this.queue(JOB_QUEUES[name]).add(name, payload, { ...DEFAULT_JOB_OPTIONS, jobId });
  }

  async counts(): Promise<QueueCounts[]> {
    return Promise.all(
      QUEUE_NAMES.map(async (queue) => {
        const c = await this.queue(queue).getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed');
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

  private queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = this.connection.createQueue(name);
      this.queues.set(name, queue);
    }
    return queue;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
