import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { JobName, JobPayloads } from '../../jobs/job-map.js';
import { JobQueue } from './job-queue.service.js';
import { OutboxJob } from './outbox-job.entity.js';

const RELAY_INTERVAL_MS = 5_000;
const RELAY_BATCH = 100;

/**
 * Transactional outbox: a use case stages its jobs in the same unit of work as its rows,
 * so a job exists exactly when the data it is about was committed. After the commit the
 * relay hands them to BullMQ; a timer picks up any left behind (crash, queue outage).
 */
@Injectable()
export class Outbox implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(Outbox.name);
  private timer: NodeJS.Timeout | undefined;
  private relaying: Promise<number> | undefined;
  private passRequested = false;

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(JobQueue) private readonly jobs: JobQueue,
  ) {}

  /** Persists the job in `em`; it is committed by the caller's flush or transaction. */
  stage<N extends JobName>(em: EntityManager, name: N, payload: JobPayloads[N]): OutboxJob {
    const job = em.create(OutboxJob, { name, payload: payload as unknown as Record<string, unknown>, createdAt: new Date() });
    em.persist(job);
    return job;
  }

  /** Enqueues every unpublished job; safe to run concurrently from several processes. */
  relay(): Promise<number> {
    // One relay at a time per process. A call during a run asks for one more pass, because
    // its jobs may have been committed after that run read the table.
    if (this.relaying) {
      this.passRequested = true;
      return this.relaying;
    }
    this.relaying = (async () => {
      let published = 0;
      do {
        this.passRequested = false;
        const batch = await this.relayBatch();
        published += batch;
        if (batch === RELAY_BATCH) this.passRequested = true;
      } while (this.passRequested);
      return published;
    })().finally(() => (this.relaying = undefined));
    return this.relaying;
  }

  private async relayBatch(): Promise<number> {
    const em = this.em.fork();
    return em.transactional(async (tx) => {
      const rows = await tx
        .getConnection()
        .execute<{ id: string; name: JobName; payload: Record<string, unknown> }[]>(
          `select id, name, payload from outbox_job where published_at is null order by created_at limit ? for update skip locked`,
          [RELAY_BATCH],
        );
      for (const row of rows) {
        await this.jobs.enqueue(row.name, row.payload as never, row.id);
      }
      if (rows.length > 0) {
        await tx.nativeUpdate(OutboxJob, { id: { $in: rows.map((r) => r.id) } }, { publishedAt: new Date() });
      }
      return rows.length;
    });
  }

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      this.relay().catch((error: unknown) => this.logger.warn(`outbox relay failed, will retry: ${String(error)}`));
    }, RELAY_INTERVAL_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.relaying?.catch(() => undefined);
  }
}
