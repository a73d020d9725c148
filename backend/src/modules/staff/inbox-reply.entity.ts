import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';

/** A reply a member of staff wrote from the inbox: e-mailed by a job, shown in the item's thread. */
@Entity({ tableName: 'inbox_reply' })
@Index({ properties: ['itemKind', 'itemId', 'createdAt'] })
export class InboxReply {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 20 })
  itemKind!: string;

  @Property({ type: 'uuid' })
  itemId!: string;

  @Property({ type: 'uuid' })
  staffId!: string;

  @Property({ type: 'string', length: 100 })
  staffName!: string;

  @Property({ type: 'string', length: 254 })
  toEmail!: string;

  @Property({ type: 'string', length: 100 })
  toName!: string;

  @Property({ type: 'string', length: 250 })
  subject!: string;

  @Property({ type: 'text' })
  body!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Set once the mail has been handed to the transport (makes the job idempotent). */
  @Property({ type: 'datetime', nullable: true })
  sentAt?: Date;
}
