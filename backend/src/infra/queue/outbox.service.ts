import { ChangeSetType, type EventSubscriber, type FlushEventArgs, type TransactionEventArgs } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { type BeforeApplicationShutdown, Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { ThrottledLog } from '../../common/throttled-log.js';
import { withTimeout } from '../../common/timeout.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { QueueName } from '../../jobs/queues.js';
import { JobQueue } from './job-queue.service.js';
import { OutboxJob } from './outbox-job.entity.js';

const RELAY_BATCH = 100;
/** How long the reconciler leaves an entry alone after checking it. */
const RECONCILE_LEASE_SECONDS = 120;
const RECONCILE_BATCH = 200;
const SHUTDOWN_WAIT_MS = 5_000;

export interface OutboxBacklog {
  stuck: number;
  retrying: number;
  failed: number;
}

interface ClaimedEntry {
  id: string;
  name: string;
  queue: QueueName;
  payload: unknown;
}

/**
 * The transactional outbox. Use cases persist entries (DomainEvents.publish) in their own
 * transaction; after that transaction commits, the relay hands them to BullMQ by itself (an ORM
 * subscriber notices the commit), and a timer picks up anything left behind.
 *
 * Nothing here waits on the queue backend inside a database transaction: entries are claimed with
 * a short lease in one statement, handed over with bounded waits, then marked. The reconciler
 * re-enqueues entries whose job vanished from the backend (a Redis that lost its data), so an
 * entry is done only when its handler has run (JobRunner marks it).
 */
@Injectable()
export class Outbox implements OnModuleInit, OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Outbox');
  private readonly problems = new ThrottledLog(this.logger, 60_000);
  private readonly timers: NodeJS.Timeout[] = [];
  private relaying: Promise<number> | undefined;
  private passRequested = false;
  private reconciling: Promise<void> | undefined;
  private stopped = false;

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(JobQueue) private readonly jobs: JobQueue,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.em.getEventManager().registerSubscriber(new RelayAfterCommit(() => this.requestRelay()));
  }

  onApplicationBootstrap(): void {
    const pollMs = this.config.queue.outboxPollSeconds * 1000;
    this.every(pollMs, () => this.requestRelay());
    this.every(pollMs * 6, () => void this.reconcile());
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private requestRelay(): void {
    if (this.stopped) return;
    this.relay().catch((error: unknown) => this.problems.warn('relay', `outbox relay failed, will retry: ${String(error)}`));
  }

  /** Hands every pending entry to the queues; safe to run concurrently from several processes. */
  relay(): Promise<number> {
    // One relay at a time per process. A call during a run asks for one more pass, because
    // its entries may have been committed after that run read the table.
    if (this.relaying) {
      this.passRequested = true;
      return this.relaying;
    }
    this.relaying = (async () => {
      let published = 0;
      do {
        this.passRequested = false;
        const { handed, claimed } = await this.relayBatch();
        published += handed;
        if (claimed === RELAY_BATCH && handed === claimed) this.passRequested = true;
      } while (this.passRequested && !this.stopped);
      return published;
    })().finally(() => (this.relaying = undefined));
    return this.relaying;
  }

  private async relayBatch(): Promise<{ claimed: number; handed: number }> {
    const connection = this.em.getConnection();
    const claimed = await connection.execute<ClaimedEntry[]>(
      // The lease (JOB_LEASE_SECONDS) is how long this relay may take to hand the entries over before
      // another may try: entries of a process that died mid-relay wait that long.
      `update outbox_job set leased_until = now() + make_interval(secs => ?)
        where id in (select id from outbox_job
                      where completed_at is null and enqueued_at is null and failed_at is null
                        and (leased_until is null or leased_until < now())
                      order by created_at limit ? for update skip locked)
        returning id, name, queue, payload`,
      [this.config.queue.jobLeaseSeconds, RELAY_BATCH],
    );
    const handed: string[] = [];
    try {
      for (const entry of claimed) {
        await this.jobs.enqueue(entry.queue, entry.name, entry.payload, entry.id);
        handed.push(entry.id);
      }
    } finally {
      // What could not be handed over keeps its lease and is retried when the lease runs out.
      if (handed.length > 0) {
        await connection.execute(`update outbox_job set enqueued_at = now(), leased_until = null where id in (?)`, [handed]);
      }
    }
    return { claimed: claimed.length, handed: handed.length };
  }

  /** Finds entries handed over long ago whose job the queue backend no longer has, and hands them over again. */
  reconcile(): Promise<void> {
    if (this.reconciling || this.stopped) return this.reconciling ?? Promise.resolve();
    this.reconciling = this.reconcileBatch()
      .catch((error: unknown) => this.problems.warn('reconcile', `outbox reconciliation failed, will retry: ${String(error)}`))
      .finally(() => (this.reconciling = undefined));
    return this.reconciling;
  }

  private async reconcileBatch(): Promise<void> {
    const connection = this.em.getConnection();
    const olderThanSeconds = this.config.queue.outboxPollSeconds * 12;
    const entries = await connection.execute<ClaimedEntry[]>(
      `update outbox_job set leased_until = now() + interval '${RECONCILE_LEASE_SECONDS} seconds'
        where id in (select id from outbox_job
                      where completed_at is null and failed_at is null
                        and enqueued_at < now() - make_interval(secs => ?)
                        and (leased_until is null or leased_until < now())
                      order by enqueued_at limit ? for update skip locked)
        returning id, name, queue`,
      [olderThanSeconds, RECONCILE_BATCH],
    );
    let vanished = 0;
    for (const entry of entries) {
      const state = await this.jobs.stateOf(entry.queue, entry.id);
      if (state === undefined) {
        vanished++;
        await connection.execute(`update outbox_job set enqueued_at = null, leased_until = null where id = ? and completed_at is null`, [
          entry.id,
        ]);
      } else if (state === 'completed') {
        // The handler ran but its process stopped before recording it.
        await connection.execute(`update outbox_job set completed_at = now() where id = ? and completed_at is null`, [entry.id]);
      } else if (state === 'failed') {
        await connection.execute(`update outbox_job set failed_at = coalesce(failed_at, now()) where id = ?`, [entry.id]);
      }
    }
    if (vanished > 0) {
      this.logger.warn(`${vanished} job(s) vanished from the ${this.jobs.backendName} queue backend; handing them over again`);
      this.requestRelay();
    }
  }

  /**
   * Work not going to plan: entries not handed to the queue a minute after their commit (the queue
   * backend is unreachable), entries whose job failed and is being retried, and entries whose job
   * failed for good (an operator retries them from the queue).
   */
  async backlog(): Promise<OutboxBacklog> {
    const [row] = await this.em.getConnection().execute<Array<Record<keyof OutboxBacklog, string>>>(
      `select count(*) filter (where enqueued_at is null and created_at < now() - interval '1 minute') as stuck,
              count(*) filter (where failed_at is null and last_error is not null) as retrying,
              count(*) filter (where failed_at is not null) as failed
         from outbox_job where completed_at is null`,
    );
    return { stuck: Number(row?.stuck ?? 0), retrying: Number(row?.retrying ?? 0), failed: Number(row?.failed ?? 0) };
  }

  /** An operator retries the entry's job: it is expected to run again, no longer failed for good. */
  async reopen(jobId: string): Promise<void> {
    await this.em.getConnection().execute(`update outbox_job set failed_at = null where id = ? and completed_at is null`, [jobId]);
  }

  /** An operator removed the entry's job: it is given up (never handed to the queue again). */
  async abandon(jobId: string, why: string): Promise<void> {
    await this.em
      .getConnection()
      .execute(`update outbox_job set failed_at = coalesce(failed_at, now()), last_error = ? where id = ? and completed_at is null`, [
        why,
        jobId,
      ]);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    const running = [this.relaying, this.reconciling].filter(Boolean).map((p) => Promise.resolve(p).catch(() => undefined));
    await withTimeout(Promise.all(running), SHUTDOWN_WAIT_MS, 'outbox shutdown').catch(() => undefined);
  }
}

/**
 * Relays after a commit that wrote outbox entries. A flush outside a transaction has committed by
 * `afterFlush`; inside one, the entries wait for `afterTransactionCommit` of that transaction.
 * (A savepoint's commit cannot be traced to its transaction here, so it relays on the next
 * top-level commit; the relay timer is the backstop either way.)
 */
class RelayAfterCommit implements EventSubscriber {
  private readonly pending = new WeakSet<object>();
  private pendingFromSavepoint = false;

  constructor(private readonly relay: () => void) {}

  afterFlush({ em, uow }: FlushEventArgs): void {
    const wroteOutbox = uow.getChangeSets().some((cs) => cs.type === ChangeSetType.CREATE && cs.entity instanceof OutboxJob);
    if (!wroteOutbox) return;
    const transaction = em.getTransactionContext<object>();
    if (transaction) this.pending.add(transaction);
    else this.relay();
  }

  afterTransactionCommit({ transaction }: TransactionEventArgs): void {
    if (!transaction) return;
    const isSavepoint = 'savepointName' in transaction;
    if (this.pending.has(transaction)) {
      this.pending.delete(transaction);
      if (isSavepoint) this.pendingFromSavepoint = true;
      else this.relay();
    } else if (!isSavepoint && this.pendingFromSavepoint) {
      this.pendingFromSavepoint = false;
      this.relay();
    }
  }
}
