import { OptionalProps, type Ref } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { User } from '../users/user.entity.js';
import { Listing } from './listing.entity.js';

/**
 * The owner's appeal against a listing staff hid (issue 23 §5): one per hiding. Staff approve it
 * (the listing is restored) or decline it (the hiding stands and the case is closed) in the inbox;
 * the staff inbox columns (InboxTracked) are on the row. Goes with its listing.
 */
@Entity({ tableName: 'listing_appeal' })
@Index({ properties: ['createdAt'] })
@Unique({ properties: ['listing', 'hiddenAt'] })
export class ListingAppeal {
  [OptionalProps]?: 'createdAt' | 'status';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Listing, { ref: true, deleteRule: 'cascade' })
  listing!: Ref<Listing>;

  /** The hiding appealed against (the listing's removedAt then): one appeal per hiding. */
  @Property({ type: 'datetime' })
  hiddenAt!: Date;

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  @Index()
  owner!: Ref<User>;

  @Property({ type: 'text' })
  text!: string;

  /** The reason staff gave for hiding the listing, as it stood when the owner appealed. */
  @Property({ type: 'text' })
  removalReason!: string;

  @Enum({ items: ['pending', 'approved', 'declined'] })
  status: 'pending' | 'approved' | 'declined' = 'pending';

  @Property({ type: 'datetime', nullable: true })
  decidedAt?: Date | null;

  /** Why staff upheld the hiding; the owner reads it. */
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
