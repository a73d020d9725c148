import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { RETENTION } from '../../contracts/retention.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { AccountDeletion } from '../profile/account-deletion.js';
import { User } from '../users/user.entity.js';
import { daysBefore, RetentionRegistry, yearsBefore } from './retention.registry.js';

const BATCH = 200;

export interface RetentionReport {
  warned: number;
  deleted: number;
  spared: number;
  purged: Record<string, number>;
}

/** When an account warned at `warnedAt` is deleted: two years after its last use, and never sooner than 30 days after the warning. */
export function deletionDueAt(user: Pick<User, 'lastActiveAt' | 'inactivityWarnedAt'>): Date {
  const inactive = yearsBefore(user.lastActiveAt, -RETENTION.inactiveAccountYears);
  const grace = daysBefore(user.inactivityWarnedAt ?? user.lastActiveAt, -RETENTION.inactivityWarningDays);
  return inactive > grace ? inactive : grace;
}

/**
 * The daily retention run (docs/retention.md): accounts unused for two years are warned 30 days
 * ahead, once, then deleted by the same path as a deletion from the profile unless they were used
 * meanwhile; then every module's purge (contact messages, feedback, newsletter sign-ups) runs. It
 * logs counts only. "Used" is `User.lastActiveAt`: a sign-in, or a session in use (recorded at most
 * every 5 minutes).
 */
@Injectable()
export class RetentionJob {
  private readonly logger = new Logger('Retention');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(AccountDeletion) private readonly deletion: AccountDeletion,
    @Inject(RetentionRegistry) private readonly registry: RetentionRegistry,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @ScheduledJob({ name: 'retention.daily', queue: 'maintenance', everyMs: 24 * 3600_000 })
  async daily(): Promise<void> {
    await this.run();
  }

  async run(): Promise<RetentionReport> {
    const now = this.clock.now();
    const spared = await this.spareReturnedAccounts();
    const deleted = await this.deleteInactiveAccounts(now);
    const warned = await this.warnInactiveAccounts(now);
    const purged: Record<string, number> = {};
    for (const purge of this.registry.all()) purged[purge.what] = await purge.purge(now);
    const counts = Object.entries(purged).map(([what, count]) => `${count} ${what}`);
    this.logger.log(
      `retention run: ${warned} inactive account(s) warned, ${deleted} deleted, ${spared} back in use; purged ${counts.join(', ') || 'nothing'}`,
    );
    return { warned, deleted, spared, purged };
  }

  /** A warned account used since its warning starts afresh: a later inactivity is warned of again. */
  private async spareReturnedAccounts(): Promise<number> {
    const result = await this.em
      .fork()
      .getConnection()
      .execute<{ affectedRows: number }>(
        `update app_user set inactivity_warned_at = null
          where inactivity_warned_at is not null and deleted_at is null and last_active_at > inactivity_warned_at`,
        [],
        'run',
      );
    return result.affectedRows;
  }

  private async deleteInactiveAccounts(now: Date): Promise<number> {
    let deleted = 0;
    for (;;) {
      const batch = await this.em.fork().transactional(async (tx) => {
        const due = await tx.find(
          User,
          {
            deletedAt: null,
            inactivityWarnedAt: { $ne: null, $lte: daysBefore(now, RETENTION.inactivityWarningDays) },
            lastActiveAt: { $lte: yearsBefore(now, RETENTION.inactiveAccountYears) },
          },
          { limit: BATCH, lockMode: LockMode.PESSIMISTIC_WRITE, fields: ['id'] },
        );
        for (const user of due) await this.deletion.delete(tx, user.id);
        return due.length;
      });
      deleted += batch;
      if (batch < BATCH) return deleted;
    }
  }

  private async warnInactiveAccounts(now: Date): Promise<number> {
    const unusedSince = daysBefore(yearsBefore(now, RETENTION.inactiveAccountYears), -RETENTION.inactivityWarningDays);
    let warned = 0;
    for (;;) {
      const batch = await this.em.fork().transactional(async (tx) => {
        const due = await tx.find(
          User,
          { deletedAt: null, inactivityWarnedAt: null, lastActiveAt: { $lte: unusedSince } },
          { limit: BATCH, lockMode: LockMode.PESSIMISTIC_WRITE },
        );
        for (const user of due) {
          user.inactivityWarnedAt = now;
          this.events.publish(tx, 'user.inactivity-warned', { userId: user.id });
        }
        return due.length;
      });
      warned += batch;
      if (batch < BATCH) return warned;
    }
  }

  /** The warning, for an account still warned when the job runs (not deleted, not used again meanwhile). */
  @OnDomainEvent('user.inactivity-warned', { name: 'retention.mail-inactivity-warning', queue: 'mail' })
  async mailWarning(event: DomainEvent<'user.inactivity-warned'>): Promise<void> {
    const user = await this.em.fork().findOne(User, { id: event.payload.userId, deletedAt: null });
    if (!user?.inactivityWarnedAt || user.lastActiveAt > user.inactivityWarnedAt) return;
    const date = deletionDueAt(user).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'Europe/London',
    });
    await this.mail.send({
      // One warning per warning period: a repeat of this job carries the same Message-ID.
      key: `user-${user.id}.inactivity-warning.${user.inactivityWarnedAt.getTime()}`,
      to: user.email,
      subject: `Your Fieldmarket account will be deleted on ${date}`,
      text: [
        `Hello ${user.fullName},`,
        '',
        `Nobody has signed in to your Fieldmarket account for nearly ${RETENTION.inactiveAccountYears} years. As our privacy policy says,`,
        `we delete accounts that have not been used for ${RETENTION.inactiveAccountYears} years, with their listings and saved items`,
        `(the members you wrote to keep what was said, from "Deleted user").`,
        '',
        `Your account will be deleted on ${date}. To keep it, just sign in before then: ${this.config.publicUrl}/signin`,
        '',
        `If you no longer need it, you need do nothing. You can also download your data from your profile first: ${this.config.publicUrl}/profile`,
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }
}
