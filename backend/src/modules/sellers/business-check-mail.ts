import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { User } from '../users/user.entity.js';
import { BusinessVerification } from './business-verification.entity.js';

/** Tells the seller what staff decided about their business check, with the reason of a decline. */
@Injectable()
export class BusinessCheckMail {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnDomainEvent('seller.business-check-decided', { name: 'sellers.mail-business-check', queue: 'mail' })
  async tell(event: DomainEvent<'seller.business-check-decided'>): Promise<void> {
    const em = this.em.fork();
    const check = await em.findOne(BusinessVerification, { id: event.payload.verificationId });
    const seller = check && (await em.findOne(User, { id: check.seller.id, deletedAt: null }));
    if (!check || !seller || check.status === 'pending') return;
    const approved = check.status === 'approved';
    await this.mail.send({
      key: `business-check-${check.id}.${event.id}`,
      to: seller.email,
      subject: approved ? 'Your business details are verified' : 'We could not verify your business details',
      text: [
        `Hello ${seller.fullName},`,
        '',
        approved
          ? `Our team has checked the details of ${check.businessName}. Your listings and profile now show "Business verified".`
          : `Our team could not verify the details of ${check.businessName}. The reason we gave:`,
        ...(approved
          ? []
          : [check.declineReason ?? '(none given)', '', `You can correct them and ask again: ${this.config.publicUrl}/profile`]),
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }
}
