import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';

/**
 * A job written in the same transaction as the data it is about (transactional outbox).
 * The relay hands it to BullMQ with its id as the job id, so a row is enqueued at most once.
 */
@Entity({ tableName: 'outbox_job' })
@Index({ properties: ['publishedAt', 'createdAt'] })
export class OutboxJob {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'json' })
  payload!: Record<string, unknown>;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  publishedAt?: Date;
}
