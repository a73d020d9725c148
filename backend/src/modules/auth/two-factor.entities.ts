import type { Ref } from '@mikro-orm/core';
import { Entity, Index, ManyToOne, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';
import { randomUUID } from 'node:crypto';
import { User } from '../users/user.entity.js';

/**
 * The step between a correct password and a session, for an account with two-factor sign-in: a
 * random token in an httpOnly cookie of the browser that gave the password (never a bare user id),
 * answered with a code within minutes, in a few tries.
 */
@Entity({ tableName: 'login_challenge' })
export class LoginChallenge {
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
  expiresAt!: Date;

  @Property({ type: 'integer' })
  failedAttempts: number = 0;
}

/** A one-time code for signing in without the authenticator app; only its SHA-256 is kept. */
@Entity({ tableName: 'recovery_code' })
export class RecoveryCode {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  @Index()
  user!: Ref<User>;

  @Property({ type: 'string', length: 64, hidden: true })
  codeHash!: string;

  @Property({ type: 'datetime', nullable: true })
  usedAt?: Date;
}
