import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { RESPONSE_HOURS } from '../../contracts/staff.js';
import { type InboxItem, type InboxItemDetail, InboxSourceBase, InboxSources } from '../staff/inbox/inbox-source.js';
import { ContactMessage } from './contact-message.entity.js';

/** Contact messages in the staff inbox (support e-mail: answered within 24 hours). */
@Injectable()
export class ContactInbox extends InboxSourceBase<ContactMessage> {
  readonly kind = 'contact' as const;
  protected readonly entity = ContactMessage;
  protected readonly responseHours = RESPONSE_HOURS.contact;

  constructor(@Inject(EntityManager) em: EntityManager, @Inject(InboxSources) registry: InboxSources) {
    super(em, registry);
  }

  protected toItem(message: ContactMessage): InboxItem {
    return {
      ...this.tracked(message),
      subject: message.subject,
      from: { name: message.name, email: message.email },
      preview: message.message.slice(0, 140),
      category: null,
      categoryLabel: null,
      rating: null,
      target: null,
    };
  }

  protected toDetail(message: ContactMessage): InboxItemDetail {
    return {
      ...this.toItem(message),
      body: message.message,
      fields: [
        { label: 'Name', value: message.name },
        { label: 'Email', value: message.email },
        { label: 'Subject', value: message.subject },
      ],
    };
  }
}
