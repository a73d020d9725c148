import { OptionalProps, type Ref } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { User } from '../users/user.entity.js';

/**
 * A trade seller's request that staff check their business details (issue 23 §2), with the details
 * as they were asked about. Answered in the staff inbox; approving it marks the account "Business verified".
 */
@Entity({ tableName: 'business_verification' })
@Index({ properties: ['createdAt'] })
@Index({
  name: 'business_verification_one_pending_per_seller',
  expression: `create unique index "business_verification_one_pending_per_seller" on "business_verification" ("seller_id") where "status" = 'pending'`,
})
export class BusinessVerification {
  [OptionalProps]?: 'createdAt' | 'status';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  @Index()
  seller!: Ref<User>;

  @Property({ type: 'string', length: 100 })
  businessName!: string;

  @Property({ type: 'string', length: 8, nullable: true })
  companyNumber?: string | null;

  @Property({ type: 'string', length: 12, nullable: true })
  vatNumber?: string | null;

  @Enum({ items: ['pending', 'approved', 'declined'] })
  status: 'pending' | 'approved' | 'declined' = 'pending';

  @Property({ type: 'datetime', nullable: true })
  decidedAt?: Date | null;

  /** Why staff declined; the seller is sent it. */
  @Property({ type: 'text', nullable: true })
  declineReason?: string | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  // The staff inbox (InboxTracked).
  @Property({ type: 'datetime', nullable: true })
  readAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  archivedAt?: Date | null;

  @Property({ type: 'uuid', nullable: true })
  assignedToId?: string | null;
}
