import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { JobHandlers } from '../../infra/queue/job-handlers.js';
import type { JobPayloads } from '../../jobs/job-map.js';
import { acknowledgement, staffCopy } from './contact-mail.js';
import { ContactMessage } from './contact-message.entity.js';

/**
 * Job "contact.deliver": e-mails the message to staff, then acknowledges it to the sender.
 * Each step records its time, so a retry after a partial failure sends nothing twice.
 */
@Injectable()
export class ContactDeliveryJob implements OnModuleInit {
  private readonly logger = new Logger(ContactDeliveryJob.name);

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.handlers.register('contact.deliver', (payload) => this.run(payload));
  }

  async run({ contactMessageId }: JobPayloads['contact.deliver']): Promise<void> {
    const message = await this.em.findOne(ContactMessage, { id: contactMessageId });
    if (!message) {
      // Purged before delivery (retention); nothing left to send.
      this.logger.warn(`contact message ${contactMessageId} no longer exists; skipping`);
      return;
    }
    if (!message.staffNotifiedAt) {
      await this.mail.send(staffCopy(message, this.config.mail.staffAddress));
      message.staffNotifiedAt = new Date();
      await this.em.flush();
    }
    if (!message.acknowledgedAt) {
      await this.mail.send(acknowledgement(message));
      message.acknowledgedAt = new Date();
      await this.em.flush();
    }
  }
}
