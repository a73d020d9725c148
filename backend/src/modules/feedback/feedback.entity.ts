import type { Ref } from '@mikro-orm/core';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { FEEDBACK_CATEGORY_VALUES, type FeedbackCategory } from '../../contracts/feedback.js';
import { User } from '../users/user.entity.js';

/** Feedback sent from /feedback, kept as the fields the form asked for. Purged by the retention job. */
@Entity({ tableName: 'feedback' })
@Index({ properties: ['createdAt'] })
export class Feedback {
  [OptionalProps]?: 'createdAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 100 })
  name!: string;

  @Property({ type: 'string', length: 254 })
  email!: string;

  @Enum({ items: () => FEEDBACK_CATEGORY_VALUES })
  category!: FeedbackCategory;

  @Property({ type: 'smallint' })
  rating!: number;

  @Property({ type: 'text' })
  message!: string;

  /** The account that sent it, when signed in; its feedback goes with the account. */
  @ManyToOne(() => User, { ref: true, nullable: true, deleteRule: 'set null' })
  @Index()
  user?: Ref<User>;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Set once staff have been mailed (makes the job idempotent). */
  @Property({ type: 'datetime', nullable: true })
  staffNotifiedAt?: Date;

  // The staff inbox (InboxTracked): read, archived, and who of staff has it.
  @Property({ type: 'datetime', nullable: true })
  readAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  archivedAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  assignedToId?: string | null;
}
