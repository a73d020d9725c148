import type { Ref } from '@mikro-orm/core';
import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { User } from '../users/user.entity.js';

export type SubscriptionStatus = 'pending' | 'confirmed' | 'unsubscribed';

/**
 * An address on the newsletter list: pending until the mailed link confirms it (double opt-in),
 * then confirmed until unsubscribed. One row per address.
 */
@Entity({ tableName: 'newsletter_subscription' })
export class NewsletterSubscription {
  [OptionalProps]?: 'status' | 'requestedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  /** Lower case. */
  @Property({ type: 'string', length: 254 })
  @Unique()
  email!: string;

  @Enum({ items: ['pending', 'confirmed', 'unsubscribed'] })
  status: SubscriptionStatus = 'pending';

  /** SHA-256 of the confirmation link's token; cleared when used (single use). */
  @Property({ type: 'string', length: 64, nullable: true, hidden: true })
  @Unique()
  confirmTokenHash?: string;

  @Property({ type: 'datetime', nullable: true })
  confirmExpiresAt?: Date;

  /**
   * The token of the unsubscribe link in every newsletter mail. Kept as is (not hashed): each mail
   * must carry it, and it can do nothing but unsubscribe this address.
   */
  @Property({ type: 'string', length: 64, hidden: true })
  @Unique()
  unsubscribeToken!: string;

  /** The account with this address, when there is one: the subscription is part of its data. */
  @ManyToOne(() => User, { ref: true, nullable: true, deleteRule: 'set null' })
  @Index()
  user?: Ref<User>;

  /** The last sign-up request (a pending one is purged 30 days after it). */
  @Property({ type: 'datetime' })
  @Index()
  requestedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  confirmedAt?: Date;

  @Property({ type: 'datetime', nullable: true })
  @Index()
  unsubscribedAt?: Date;
}
