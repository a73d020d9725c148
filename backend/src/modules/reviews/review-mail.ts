import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { User } from '../users/user.entity.js';
import { Review } from './review.entity.js';

/** E-mails the member reviewed, when they keep e-mail notifications on (the profile's privacy switch). */
@Injectable()
export class ReviewMail {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnDomainEvent('review.published', { name: 'reviews.mail-published', queue: 'mail' })
  async published(event: DomainEvent<'review.published'>): Promise<void> {
    const em = this.em.fork();
    const review = await em.findOne(Review, { id: event.payload.reviewId, hiddenAt: null });
    const reviewed = review && (await em.findOne(User, { id: review.reviewed }));
    if (!review || !reviewed || reviewed.deletedAt || !reviewed.emailNotifications) return;
    const author = review.reviewer ? await em.findOne(User, { id: review.reviewer }) : null;
    await this.mail.send({
      key: `review-${review.id}.published`,
      to: reviewed.email,
      subject: `${author && !author.deletedAt ? author.fullName : 'A member'} reviewed you on Fieldmarket`,
      text: [
        `Hello ${reviewed.fullName},`,
        '',
        `${author && !author.deletedAt ? author.fullName : 'A member'} left you a ${review.stars}-star review about "${review.listingTitle}".`,
        '',
        `Read it, and reply if you like (within 48 hours): ${this.config.publicUrl}/profile/${reviewed.id}#reviews`,
        '',
        'You can turn these e-mails off in your profile’s privacy settings (email notifications).',
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }
}
