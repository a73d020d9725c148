import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { InboxReply } from './inbox-reply.entity.js';

/** E-mails a reply written in the inbox and records when it went (a retry after that sends nothing). */
@Injectable()
export class InboxReplySubscriber {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
  ) {}

  @OnDomainEvent('inbox.reply-queued', { name: 'staff.send-inbox-reply', queue: 'mail' })
  async send(event: DomainEvent<'inbox.reply-queued'>): Promise<void> {
    const reply = await this.em.findOne(InboxReply, { id: event.payload.replyId });
    if (!reply || reply.sentAt) return; // deleted with its item, or already sent
    await this.mail.send({
      key: `inbox-reply-${reply.id}`,
      to: reply.toEmail,
      subject: reply.subject,
      text: [`Hello ${reply.toName},`, '', reply.body, '', `${reply.staffName}`, 'The Fieldmarket team'].join('\n'),
    });
    reply.sentAt = new Date();
    await this.em.flush();
  }
}
