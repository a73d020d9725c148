import { OptionalProps } from '@mikro-orm/core';
import { Entity, Enum, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import type { BookingDetails } from '../../contracts/messaging.js';
import { User } from '../users/user.entity.js';
import { Conversation } from './conversation.entity.js';

export type MessageKind = 'text' | 'booking-request';

/** One message of a conversation; a booking request carries its dates and state in `booking`. */
@Entity({ tableName: 'message' })
@Index({ properties: ['conversation', 'createdAt', 'id'] })
@Index({ properties: ['recipient', 'readAt'] })
@Index({ properties: ['sender'] })
@Index({
  name: 'message_booking_listing_index',
  expression: `create index "message_booking_listing_index" on "message" (("booking"->>'listing_id')) where "kind" = 'booking-request'`,
})
@Index({
  name: 'message_unread_reminder_index',
  expression:
    'create index "message_unread_reminder_index" on "message" ("created_at") where "read_at" is null and "reminder_handled_at" is null',
})
export class Message {
  [OptionalProps]?: 'createdAt' | 'kind' | 'safetyNotice';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => Conversation, { mapToPk: true, deleteRule: 'cascade' })
  conversation!: string;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  sender!: string;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  recipient!: string;

  @Enum({ items: ['text', 'booking-request'] })
  kind: MessageKind = 'text';

  @Property({ type: 'text' })
  content!: string;

  /**
   * Its recipient sees a safety notice beside it: it carries bank details, a payment link or a way
   * to talk elsewhere (contracts/message-safety.ts, applied once when it is stored; never blocks it).
   */
  @Property({ type: 'boolean', default: false })
  safetyNotice: boolean = false;

  @Property({ type: 'json', nullable: true })
  booking?: BookingDetails | null;

  /** When the recipient read it; unread while null (SPEC §3 "read"). */
  @Property({ type: 'datetime', nullable: true })
  readAt?: Date | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** Set once the unread-messages e-mail job has dealt with it (mailed, covered or not wanted). */
  @Property({ type: 'datetime', nullable: true })
  reminderHandledAt?: Date | null;
}
