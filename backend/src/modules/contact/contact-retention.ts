import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { RETENTION } from '../../contracts/retention.js';
import { RetentionRegistry, yearsBefore } from '../retention/retention.registry.js';
import { ContactMessage } from './contact-message.entity.js';

/** Contact messages (with the address they came from) are deleted two years after they were sent. */
@Injectable()
export class ContactRetention implements OnModuleInit {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(RetentionRegistry) private readonly retention: RetentionRegistry,
  ) {}

  onModuleInit(): void {
    this.retention.add({
      what: 'contact messages',
      purge: (now) => this.em.fork().nativeDelete(ContactMessage, { createdAt: { $lt: yearsBefore(now, RETENTION.contactMessageYears) } }),
    });
  }
}
