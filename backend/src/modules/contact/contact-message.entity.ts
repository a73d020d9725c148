import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';

/** A message sent through the contact form, kept for the staff inbox. */
@Entity({ tableName: 'contact_message' })
@Index({ properties: ['clientIp', 'createdAt'] })
@Index({ properties: ['email', 'createdAt'] })
export class ContactMessage {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 254 })
  email!: string;

  @Property({ type: 'string', length: 200 })
  subject!: string;

  @Property({ type: 'text' })
  message!: string;

  /** Used only for rate limiting; purged with the message by the retention job. */
  @Property({ type: 'string', length: 64 })
  clientIp!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Set once the staff copy has been handed to the mail transport (makes the job idempotent). */
  @Property({ type: 'datetime', nullable: true })
  staffNotifiedAt?: Date;

  /** False when this address already had its day's allowance of acknowledgements. */
  @Property({ type: 'boolean' })
  acknowledgementDue: boolean = true;

  // The staff inbox (InboxTracked): read, archived, and who of staff has it.
  @Property({ type: 'datetime', nullable: true })
  readAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  archivedAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  assignedToId?: string | null;

  /** Set once the acknowledgement to the sender has been handed to the mail transport. */
  @Property({ type: 'datetime', nullable: true })
  acknowledgedAt?: Date;
}
