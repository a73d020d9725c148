import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { acknowledgement, staffCopy } from './contact-mail.js';
import { ContactMessage } from './contact-message.entity.js';

/**
 * Mails a received contact message: the staff copy and the sender's acknowledgement are two
 * subscribers, so one failing never holds back or repeats the other. Each records its send,
 * so a retry after a failure sends nothing twice; a crash between sending and recording can,
 * and then the repeat carries the same Message-ID.
 */
@Injectable()
export class ContactMailSubscriber {
  private readonly logger = new Logger('ContactMail');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnDomainEvent('contact.received', { name: 'contact.notify-staff', queue: 'mail' })
  async notifyStaff(event: DomainEvent<'contact.received'>): Promise<void> {
    const message = await this.load(event);
    if (!message || message.staffNotifiedAt) return;
    await this.mail.send(staffCopy(message, this.config.mail.staffAddress));
    message.staffNotifiedAt = new Date();
    await this.em.flush();
  }

  @OnDomainEvent('contact.received', { name: 'contact.acknowledge-sender', queue: 'mail' })
  async acknowledgeSender(event: DomainEvent<'contact.received'>): Promise<void> {
    const message = await this.load(event);
    if (!message || !message.acknowledgementDue || message.acknowledgedAt) return;
    await this.mail.send(acknowledgement(message));
    message.acknowledgedAt = new Date();
    await this.em.flush();
  }

  private async load({ payload }: DomainEvent<'contact.received'>): Promise<ContactMessage | null> {
    const message = await this.em.findOne(ContactMessage, { id: payload.contactMessageId });
    // Purged before delivery (retention): nothing left to send.
    if (!message) this.logger.warn(`contact message ${payload.contactMessageId} no longer exists; skipping`);
    return message;
  }
}
