import type { Ref } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import type { NotificationKind, NotificationType } from '../../contracts/notifications.js';
import { User } from '../users/user.entity.js';

/** A notification kept for one user (the bell), on the server so it survives reloads and devices. */
@Entity({ tableName: 'notification' })
@Index({ properties: ['user', 'createdAt'] })
@Index({ properties: ['createdAt'] })
@Unique({ properties: ['user', 'sourceKey'] })
export class Notification {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  user!: Ref<User>;

  @Property({ type: 'string', length: 20 })
  kind!: NotificationKind;

  @Property({ type: 'string', length: 10 })
  type!: NotificationType;

  @Property({ type: 'string', length: 60 })
  title!: string;

  @Property({ type: 'string', length: 300 })
  message!: string;

  @Property({ type: 'string', length: 300, nullable: true })
  actionUrl?: string;

  @Property({ type: 'boolean' })
  read: boolean = false;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** The person it names (a new message's sender): it goes when their account is deleted. */
  @Property({ type: 'uuid', nullable: true, index: true })
  aboutUserId?: string | null;

  /** The domain event it came from: a retried subscriber finds it instead of adding a second. */
  @Property({ type: 'string', length: 100 })
  sourceKey!: string;
}

/** A category a user follows: a listing posted there notifies them. */
@Entity({ tableName: 'category_follow' })
@Index({ properties: ['category'] })
export class CategoryFollow {
  @ManyToOne(() => User, { ref: true, primary: true, deleteRule: 'cascade' })
  user!: Ref<User>;

  /** A slug of FOLLOWABLE_CATEGORIES ('rentals' is every rental). */
  @PrimaryKey({ type: 'string', length: 20 })
  category!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}
