import type { Ref } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { User } from '../users/user.entity.js';

/**
 * A signed-in browser. The browser holds a random token in an httpOnly cookie; only its SHA-256
 * is stored, so a copy of the database signs no one in.
 */
@Entity({ tableName: 'user_session' })
export class Session {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @Property({ type: 'string', length: 64, hidden: true })
  @Unique()
  tokenHash!: string;

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  @Index()
  user!: Ref<User>;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime' })
  lastSeenAt: Date = new Date();

  /** No use after this, however active: the user signs in again. */
  @Property({ type: 'datetime' })
  expiresAt!: Date;

  /** For the user's list of sessions: the browser, as it named itself (shortened). */
  @Property({ type: 'string', length: 200 })
  userAgent: string = '';

  /** For the user's list of sessions: the network it signed in from, not the exact address. */
  @Property({ type: 'string', length: 64 })
  network: string = '';

  /** When the user last proved it is them here (password or Google): some changes need it recently. */
  @Property({ type: 'datetime' })
  authenticatedAt: Date = new Date();

  /**
   * When this session itself passed a second factor: a code (or recovery code) at sign-in, or the
   * code that turned two-factor on here. Staff pages need it; the account having two-factor on is
   * not enough, since a session signed in with the password alone before it was turned on has none.
   */
  @Property({ type: 'datetime', nullable: true })
  secondFactorAt?: Date;
}
