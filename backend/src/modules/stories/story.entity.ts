import { OptionalProps, type Ref } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { STORY_NAMINGS, type StoryNaming, type StoryStatus } from '../../contracts/stories.js';
import { User } from '../users/user.entity.js';

/**
 * A success story a member told after a deal here (issue 23 §1). Published only once staff approve
 * it; goes with its author's account. The staff inbox columns (InboxTracked) are on the row.
 */
@Entity({ tableName: 'success_story' })
@Index({ properties: ['status', 'decidedAt', 'id'] })
@Index({ properties: ['createdAt'] })
@Index({
  name: 'success_story_one_pending_per_author',
  expression: `create unique index "success_story_one_pending_per_author" on "success_story" ("author_id") where "status" = 'pending'`,
})
export class SuccessStory {
  [OptionalProps]?: 'createdAt' | 'status';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  @Index()
  author!: Ref<User>;

  @Property({ type: 'text' })
  story!: string;

  @Enum({ items: () => STORY_NAMINGS })
  naming!: StoryNaming;

  /** What the deal was, from the author's deals when they told it ("Let: 12 acres of grazing"). */
  @Property({ type: 'string', length: 150 })
  dealLabel!: string;

  @Enum({ items: ['pending', 'approved', 'declined'] })
  status: StoryStatus = 'pending';

  @Property({ type: 'datetime', nullable: true })
  decidedAt?: Date | null;

  /** Why staff declined it; the author reads it. */
  @Property({ type: 'text', nullable: true })
  declineReason?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  // The staff inbox (InboxTracked): read, archived, and who of staff has it.
  @Property({ type: 'datetime', nullable: true })
  readAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  archivedAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  assignedToId?: string | null;
}
