import { type Ref } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { REPORT_REASON_KEYS, REPORT_TARGETS, type ReportReason, type ReportTarget } from '../../contracts/staff.js';
import { User } from '../users/user.entity.js';

/**
 * A signed-in user's report of a listing or a profile, waiting in the staff inbox. One open
 * (not archived) report per reporter and target: the partial unique index holds it under races.
 */
@Entity({ tableName: 'report' })
@Index({ properties: ['createdAt'] })
@Index({
  name: 'report_open_per_reporter_and_target',
  expression:
    'create unique index "report_open_per_reporter_and_target" on "report" ("reporter_id", "target_kind", "target_id") where "archived_at" is null',
})
export class Report {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  reporter!: Ref<User>;

  @Enum({ items: [...REPORT_TARGETS] })
  targetKind!: ReportTarget;

  /** The listing's or the person's id; not a foreign key, so a report outlives a deleted listing. */
  @Property({ type: 'uuid' })
  @Index()
  targetId!: string;

  /** The listing's title or the person's name when reported, for the inbox. */
  @Property({ type: 'string', length: 200 })
  targetLabel!: string;

  @Enum({ items: [...REPORT_REASON_KEYS] })
  reason!: ReportReason;

  @Property({ type: 'text', nullable: true })
  details?: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  readAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  archivedAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  assignedToId?: string | null;
}
