import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { BadRequestException, ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import type { SqlClient } from '../../infra/database/sql-client.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { User } from './user.entity.js';
import { isUuid } from '../../common/uuid.js';

export interface AccountSummary {
  id: string;
  name: string;
  email: string;
  role: 'user' | 'staff';
  twoFactor: boolean;
  createdAt: Date;
  suspendedAt: Date | null;
  suspensionReason: string | null;
}

/**
 * An account's standing, as staff and operators change it: the staff role (granted only from the
 * command line) and suspension. The users module owns the table; others call these methods.
 */
@Injectable()
export class AccountStanding {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
  ) {}

  async summary(userId: string): Promise<AccountSummary | null> {
    const user = isUuid(userId) ? await this.em.fork().findOne(User, { id: userId, deletedAt: null }) : null;
    return user ? summaryOf(user) : null;
  }

  /** A person others may report: an account that exists and shows its profile. */
  async reportable(userId: string): Promise<{ id: string; name: string } | null> {
    const user = isUuid(userId) ? await this.em.fork().findOne(User, { id: userId, deletedAt: null, suspendedAt: null }) : null;
    return user && user.profileVisible ? { id: user.id, name: user.fullName } : null;
  }

  async staffMembers(): Promise<AccountSummary[]> {
    const staff = await this.em.fork().find(User, { role: 'staff', deletedAt: null }, { orderBy: { fullName: 'asc' } });
    return staff.map(summaryOf);
  }

  async isStaff(userId: string): Promise<boolean> {
    return isUuid(userId) && (await this.em.fork().count(User, { id: userId, role: 'staff', deletedAt: null })) === 1;
  }

  /** Suspends in `tx` (the caller ends sessions and hides listings in the same transaction). */
  async suspend(tx: EntityManager, userId: string, reason: string, by: string): Promise<User> {
    const user = await this.locked(tx, userId);
    if (user.id === by) throw new BadRequestException('You cannot suspend your own account.');
    if (user.suspendedAt) throw new ConflictException('This account is already suspended.');
    user.suspendedAt = new Date();
    user.suspensionReason = reason;
    this.events.publish(tx, 'user.suspended', { userId: user.id });
    return user;
  }

  async unsuspend(tx: EntityManager, userId: string): Promise<User> {
    const user = await this.locked(tx, userId);
    if (!user.suspendedAt) throw new ConflictException('This account is not suspended.');
    user.suspendedAt = undefined;
    user.suspensionReason = undefined;
    this.events.publish(tx, 'user.unsuspended', { userId: user.id });
    return user;
  }

  /** Records the declaration in `tx`, once: a later one keeps the first time. */
  async confirmOverEighteen(tx: EntityManager, userId: string): Promise<void> {
    await tx.nativeUpdate(User, { id: userId, overEighteenConfirmedAt: null }, { overEighteenConfirmedAt: new Date() });
  }

  private async locked(tx: EntityManager, userId: string): Promise<User> {
    const user = isUuid(userId) ? await tx.findOne(User, { id: userId, deletedAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!user) throw new NotFoundException('User not found');
    return user;
  }
}

function summaryOf(user: User): AccountSummary {
  return {
    id: user.id,
    name: user.fullName,
    email: user.email,
    role: user.role,
    twoFactor: user.twoFactorEnabledAt !== undefined && user.twoFactorEnabledAt !== null,
    createdAt: user.createdAt,
    suspendedAt: user.suspendedAt ?? null,
    suspensionReason: user.suspensionReason ?? null,
  };
}

/** What `./fieldmarket staff grant|revoke` changed. */
export interface RoleChange {
  userId: string;
  email: string;
  name: string;
  changed: boolean;
  twoFactor: boolean;
}

/**
 * Grants or revokes the staff role by e-mail address, in the caller's transaction (the command
 * ends the account's sessions in the same one). Only the command line calls it: no API route can
 * change a role. Undefined when no account has this address.
 */
export async function setStaffRole(client: SqlClient, email: string, role: 'staff' | 'user'): Promise<RoleChange | undefined> {
  const address = email.trim().toLowerCase();
  const { rows } = await client.query<{ id: string; full_name: string; role: string; two_factor: boolean }>(
    `select id, full_name, role, two_factor_enabled_at is not null as two_factor from app_user
      where email = $1 and deleted_at is null for update`,
    [address],
  );
  const user = rows[0];
  if (!user) return undefined;
  if (user.role !== role) await client.query(`update app_user set role = $1, updated_at = now() where id = $2`, [role, user.id]);
  return { userId: user.id, email: address, name: user.full_name, changed: user.role !== role, twoFactor: user.two_factor };
}
