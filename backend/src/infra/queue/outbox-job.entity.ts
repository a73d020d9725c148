import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';

/**
 * One piece of background work (a subscriber's run of a domain event), written in the same
 * transaction as the data it is about (transactional outbox). Its id is the BullMQ job id, so
 * handing it to the queue twice is harmless. An entry is done when its work is done
 * (`completedAt`), not when it was handed over: the reconciler re-enqueues entries whose job
 * vanished (a Redis that lost its data) and health reports entries that are stuck or failing.
 */
@Entity({ tableName: 'outbox_job' })
@Index({ properties: ['completedAt', 'enqueuedAt'] })
export class OutboxJob {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The job (subscriber) name. */
  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 50 })
  queue!: string;

  /** The domain event, as the subscriber receives it. */
  @Property({ type: 'json' })
  payload!: Record<string, unknown>;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Until then the relay and the reconciler leave the entry alone (one of them is working on it). */
  @Property({ type: 'datetime', nullable: true })
  leasedUntil?: Date;

  /** Handed to the queue. */
  @Property({ type: 'datetime', nullable: true })
  enqueuedAt?: Date;

  /** The handler finished without error. */
  @Property({ type: 'datetime', nullable: true })
  completedAt?: Date;

  /** Every retry failed; kept for an operator to re-drive. */
  @Property({ type: 'datetime', nullable: true })
  failedAt?: Date;

  @Property({ type: 'integer', default: 0 })
  attempts: number = 0;

  @Property({ type: 'text', nullable: true })
  lastError?: string;
}
