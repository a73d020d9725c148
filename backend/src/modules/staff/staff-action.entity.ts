import { Entity, Index, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';

/**
 * The audit log: every action of a member of staff (who, what, on what, when, why). Rows are
 * never changed; the staff member's name is kept as it was, so the entry reads the same later.
 */
@Entity({ tableName: 'staff_action' })
@Index({ properties: ['targetKind', 'targetId', 'createdAt'] })
@Index({ properties: ['createdAt'] })
export class StaffAction {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** The staff account (no foreign key: the log outlives the account). */
  @Property({ type: 'uuid' })
  staffId!: string;

  @Property({ type: 'string', length: 100 })
  staffName!: string;

  /** e.g. listing.hide, user.suspend, inbox.reply, job.retry */
  @Property({ type: 'string', length: 40 })
  action!: string;

  /** listing, review, user, contact, report, feedback or job */
  @Property({ type: 'string', length: 20 })
  targetKind!: string;

  @Property({ type: 'string', length: 200 })
  targetId!: string;

  @Property({ type: 'text', nullable: true })
  reason?: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
