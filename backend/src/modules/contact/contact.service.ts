import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { TooManyRequestsException } from '../../common/errors.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { Outbox } from '../../infra/queue/outbox.service.js';
import { ContactMessage } from './contact-message.entity.js';
import type { ContactMessageRequest } from './dto/contact-message.request.js';
import type { ContactSubmittedResponse } from './dto/contact-submitted.response.js';

export const CONTACT_RATE_LIMIT_MESSAGE = 'Too many messages from your connection. Please wait a few minutes and try again.';

@Injectable()
export class ContactService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(Outbox) private readonly outbox: Outbox,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Stores the message and stages its delivery job in one transaction. The per-client limit is
   * counted on stored messages under an advisory lock, so it holds across processes and races.
   */
  async submit(request: ContactMessageRequest, clientIp: string): Promise<ContactSubmittedResponse> {
    const { limit, windowSeconds } = this.config.contactRateLimit;
    const message = await this.em.transactional(async (tx) => {
      const connection = tx.getConnection();
      await connection.execute(`select pg_advisory_xact_lock(hashtext('contact:' || ?))`, [clientIp], 'all', tx.getTransactionContext());
      const since = new Date(Date.now() - windowSeconds * 1000);
      const recent = await tx.count(ContactMessage, { clientIp, createdAt: { $gt: since } });
      if (recent >= limit) throw new TooManyRequestsException(CONTACT_RATE_LIMIT_MESSAGE);
      const stored = tx.create(ContactMessage, { ...request, clientIp, createdAt: new Date() });
      tx.persist(stored);
      this.outbox.stage(tx, 'contact.deliver', { contactMessageId: stored.id });
      return stored;
    });
    // Committed: hand the job to the queue now; the outbox timer retries if this fails.
    void this.outbox.relay().catch(() => undefined);
    return { id: message.id, receivedAt: message.createdAt.toISOString() };
  }
}
