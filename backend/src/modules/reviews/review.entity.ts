import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { User } from '../users/user.entity.js';

/**
 * A review one party of a deal wrote of the other (issue 23 §3), about one listing, with the
 * reviewed party's one reply. One per reviewer, reviewed and listing: the unique index holds it
 * under races. Account rows are scrubbed, never removed, so a deleted author's review stays and
 * reads "Deleted user"; were a row ever removed, the review would stay with no author (set null).
 */
@Entity({ tableName: 'review' })
@Unique({ name: 'review_once_per_listing', properties: ['reviewer', 'reviewed', 'listingId'] })
@Index({ properties: ['reviewed', 'createdAt', 'id'] })
export class Review {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { mapToPk: true, nullable: true, deleteRule: 'set null' })
  @Index()
  reviewer!: string | null;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  reviewed!: string;

  /** The listing the deal was about (no foreign key: the review outlives a deleted listing). */
  @Property({ type: 'uuid' })
  listingId!: string;

  /** The listing's title when the review was written, to say what the deal was. */
  @Property({ type: 'string', length: 150 })
  listingTitle!: string;

  /** The conversation in which the deal was done (no foreign key, as the listing). */
  @Property({ type: 'uuid' })
  conversationId!: string;

  @Property({ type: 'smallint' })
  stars!: number;

  @Property({ type: 'text' })
  text!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  editedAt?: Date | null;

  @Property({ type: 'text', nullable: true })
  reply?: string | null;

  @Property({ type: 'datetime', nullable: true })
  repliedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  replyEditedAt?: Date | null;

  /** Set when staff hid it after a report: it drops out of lists and averages until restored. */
  @Property({ type: 'datetime', nullable: true })
  hiddenAt?: Date | null;

  /** Why staff hid it; its author is sent it. */
  @Property({ type: 'text', nullable: true })
  hiddenReason?: string | null;
}
