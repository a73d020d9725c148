import { OptionalProps } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { MESSAGING_TEXTS } from '../../contracts/messaging.js';
import { User } from '../users/user.entity.js';

/**
 * Two people talking about a listing: the one who started it (SPEC's participant 1) and the
 * listing's owner (participant 2). The listing's id and title are copied, not referenced, so the
 * conversation keeps them after the listing goes.
 *
 * Each side has its own state: hidden (deleted from their list until a new message arrives),
 * cleared (what they see starts after this moment) and reminded (the last unread-messages e-mail).
 */
@Entity({ tableName: 'conversation' })
@Unique({ properties: ['starter', 'owner', 'listingId'] })
@Index({ properties: ['starter', 'updatedAt'] })
@Index({ properties: ['owner', 'updatedAt'] })
export class Conversation {
  [OptionalProps]?: 'createdAt' | 'updatedAt';

  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  starter!: string;

  @ManyToOne(() => User, { mapToPk: true, deleteRule: 'cascade' })
  owner!: string;

  @Property({ type: 'uuid', nullable: true })
  listingId?: string;

  @Property({ type: 'string', length: 100 })
  title!: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  /** The last message's time (or the creation's): lists sort by it. */
  @Property({ type: 'datetime' })
  updatedAt: Date = new Date();

  @Property({ type: 'datetime', nullable: true })
  starterHiddenAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  ownerHiddenAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  starterClearedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  ownerClearedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  starterRemindedAt?: Date | null;

  @Property({ type: 'datetime', nullable: true })
  ownerRemindedAt?: Date | null;
}

export type Side = 'starter' | 'owner';

/** Which side `userId` is on, or undefined when not a participant. */
export function sideOf(conversation: Conversation, userId: string): Side | undefined {
  if (conversation.starter === userId) return 'starter';
  if (conversation.owner === userId) return 'owner';
  return undefined;
}

export function otherParticipant(conversation: Conversation, userId: string): string {
  return conversation.starter === userId ? conversation.owner : conversation.starter;
}

/** How a participant is named to the other: "Deleted user" once their account is gone, never their old name. */
export function participantName(user: Pick<User, 'fullName' | 'deletedAt'> | null | undefined): string {
  if (!user) return MESSAGING_TEXTS.unknownUser;
  return user.deletedAt ? MESSAGING_TEXTS.deletedUser : user.fullName;
}
