import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { RETENTION } from '../../contracts/retention.js';
import { RetentionRegistry, yearsBefore } from '../retention/retention.registry.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { feedbackStaffCopy } from './feedback-mail.js';
import { Feedback } from './feedback.entity.js';

/**
 * Tells staff of new feedback (recorded, so a retry sends nothing twice), lists a user's feedback
 * in their data export, removes it with their account, and deletes feedback after two years.
 */
@Injectable()
export class FeedbackSubscriber implements OnModuleInit {
  private readonly logger = new Logger('Feedback');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(RetentionRegistry) private readonly retention: RetentionRegistry,
  ) {}

  onModuleInit(): void {
    this.retention.add({
      what: 'feedback',
      purge: (now) => this.em.fork().nativeDelete(Feedback, { createdAt: { $lt: yearsBefore(now, RETENTION.feedbackYears) } }),
    });
    this.userData.addPart({
      name: 'feedback',
      exportFor: async (userId) =>
        (await this.em.fork().find(Feedback, { user: userId }, { orderBy: { createdAt: 'asc' } })).map((f) => ({
          category: f.category,
          rating: f.rating,
          message: f.message,
          name: f.name,
          email: f.email,
          sent_at: f.createdAt.toISOString(),
        })),
    });
  }

  @OnDomainEvent('feedback.received', { name: 'feedback.notify-staff', queue: 'mail' })
  async notifyStaff(event: DomainEvent<'feedback.received'>): Promise<void> {
    const em = this.em.fork();
    const feedback = await em.findOne(Feedback, { id: event.payload.feedbackId });
    if (!feedback) {
      this.logger.warn(`feedback ${event.payload.feedbackId} no longer exists; skipping`); // purged or its account deleted
      return;
    }
    if (feedback.staffNotifiedAt) return;
    await this.mail.send(feedbackStaffCopy(feedback, this.config.mail.staffAddress));
    feedback.staffNotifiedAt = new Date();
    await em.flush();
  }

  @OnDomainEvent('user.deleted', { name: 'feedback.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    await this.em.fork().nativeDelete(Feedback, { user: event.payload.userId });
  }
}
