import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { DomainEvent } from '../../events/domain-events.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { EmailToken } from './email-token.entity.js';
import { Session } from './session.entity.js';
import { LoginChallenge, RecoveryCode } from './two-factor.entities.js';

/** The auth module's part of a person's data: listed in the export, removed when the account is deleted. */
@Injectable()
export class AccountData implements OnModuleInit {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(UserDataRegistry) private readonly registry: UserDataRegistry,
  ) {}

  onModuleInit(): void {
    this.registry.addPart({
      name: 'sessions',
      exportFor: async (userId) =>
        (await this.em.fork().find(Session, { user: userId }, { orderBy: { createdAt: 'asc' } })).map((s) => ({
          created_at: s.createdAt.toISOString(),
          last_seen_at: s.lastSeenAt.toISOString(),
          expires_at: s.expiresAt.toISOString(),
          user_agent: s.userAgent,
          network: s.network,
        })),
    });
    this.registry.addPart({
      name: 'security',
      exportFor: async (userId) => {
        const em = this.em.fork();
        return {
          recovery_codes_left: await em.count(RecoveryCode, { user: userId, usedAt: null }),
          email_links_sent: (await em.find(EmailToken, { user: userId }, { orderBy: { createdAt: 'asc' } })).map((t) => ({
            purpose: t.purpose,
            sent_at: t.createdAt.toISOString(),
            used_at: t.usedAt?.toISOString() ?? null,
          })),
        };
      },
    });
  }

  /** Sessions end in the deletion's own transaction; the rest goes here. */
  @OnDomainEvent('user.deleted', { name: 'auth.forget-deleted-user', queue: 'maintenance' })
  async forget(event: DomainEvent<'user.deleted'>): Promise<void> {
    const { userId } = event.payload;
    const em = this.em.fork();
    for (const entity of [Session, EmailToken, LoginChallenge, RecoveryCode] as const) {
      await em.nativeDelete(entity as typeof Session, { user: userId });
    }
  }
}
