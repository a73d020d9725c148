import { MikroORM, RequestContext } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { Job, Worker } from 'bullmq';
import { QUEUE_NAMES } from '../../jobs/job-map.js';
import { JobHandlers } from './job-handlers.js';
import { QueueConnection } from './queue-connection.js';

const CONCURRENCY = 4;

/**
 * Runs the job workers: inside the web process on the embedded default, or as the worker
 * process when REDIS_URL is set. Each job gets its own ORM context; errors propagate so
 * BullMQ retries with back-off, and a job that fails for good is logged and kept as failed.
 */
@Injectable()
export class WorkerHost implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Jobs');
  private readonly workers: Worker[] = [];

  constructor(
    @Inject(QueueConnection) private readonly connection: QueueConnection,
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(MikroORM) private readonly orm: MikroORM,
  ) {}

  onApplicationBootstrap(): void {
    this.handlers.assertComplete();
    for (const queue of QUEUE_NAMES) {
      const worker = this.connection.createWorker(queue, (job) => this.process(job), CONCURRENCY);
      worker.on('failed', (job, error) => {
        const attempts = job?.opts.attempts ?? 1;
        const final = (job?.attemptsMade ?? 0) >= attempts;
        const message = `${job?.name} [${job?.id}] attempt ${job?.attemptsMade}/${attempts} failed: ${error.message}`;
        if (final) this.logger.error(`${message}; giving up, the job stays in the failed list`);
        else this.logger.warn(`${message}; will retry`);
      });
      worker.on('error', (error) => this.logger.warn(`worker for ${queue}: ${error.message}`));
      void worker.run();
      this.workers.push(worker);
    }
    this.logger.log(`workers running for queues: ${QUEUE_NAMES.join(', ')} (${this.connection.backendName})`);
  }

  private async process(job: Job): Promise<void> {
    const handler = this.handlers.get(job.name);
    if (!handler) throw new Error(`No handler for job ${job.name}`);
    await RequestContext.create(this.orm.em, () => handler(job.data, job.attemptsMade + 1));
  }

  /** Lets in-flight jobs finish before the process exits. */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
    this.workers.length = 0;
  }
}
