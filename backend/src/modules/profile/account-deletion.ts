import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { Sessions } from '../auth/sessions.service.js';
import { User } from '../users/user.entity.js';

/**
 * Deleting an account, whoever asks (its owner from the profile, or the retention job after two
 * years of inactivity): the row is scrubbed in the caller's transaction with every session ended,
 * and `user.deleted` has each module remove or anonymise its part.
 */
@Injectable()
export class AccountDeletion {
  constructor(
    @Inject(Sessions) private readonly sessions: Sessions,
    @Inject(DomainEvents) private readonly events: DomainEvents,
  ) {}

  async delete(tx: EntityManager, userId: string): Promise<void> {
    const account = await tx.findOneOrFail(User, { id: userId });
    scrub(account);
    await this.sessions.endAll(userId, { em: tx });
    this.events.publish(tx, 'user.deleted', { userId });
  }
}

/** Empties every personal field; the row stays so others' records can say "Unknown User". */
function scrub(user: User): void {
  user.deletedAt = new Date();
  user.email = `deleted-${user.id}@deleted.invalid`;
  user.fullName = 'Unknown User';
  user.passwordHash = undefined;
  user.googleSubject = undefined;
  user.phone = undefined;
  user.businessName = null;
  user.companyNumber = null;
  user.vatNumber = null;
  user.businessVerifiedAt = null;
  user.location = undefined;
  user.bio = undefined;
  user.avatarUrl = undefined;
  user.emailVerifiedAt = undefined;
  user.twoFactorSecret = undefined;
  user.twoFactorEnabledAt = undefined;
  user.twoFactorLastStep = undefined;
  user.inactivityWarnedAt = undefined;
  user.profileVisible = false;
  user.contactVisible = false;
  user.listingsVisible = false;
}
