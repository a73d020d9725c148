import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { TooManyRequestsException } from '../../common/errors.js';
import { CONTACT_RATE_LIMIT_MESSAGE } from '../../contracts/contact.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { ContactMessage } from './contact-message.entity.js';
import type { ContactMessageRequest } from './dto/contact-message.request.js';
import type { ContactSubmittedResponse } from './dto/contact-submitted.response.js';

/** Acknowledgements one address receives per day at most, whoever types it in: the form is no way to mail-bomb someone. */
export const ACKNOWLEDGEMENTS_PER_ADDRESS_PER_DAY = 3;

@Injectable()
export class ContactService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Stores the message and publishes `contact.received` in one transaction. The per-client
   * limit is counted on stored messages under an advisory lock, so it holds across processes
   * and races; so is the per-address allowance of acknowledgements.
   */
  async submit(request: ContactMessageRequest, clientIp: string): Promise<ContactSubmittedResponse> {
    const { limit, windowSeconds } = this.config.contactRateLimit;
    const message = await this.em.transactional(async (tx) => {
      await this.lock(tx, `contact:${clientIp}`);
      const since = new Date(Date.now() - windowSeconds * 1000);
      const recent = await tx.find(
        ContactMessage,
        { clientIp, createdAt: { $gt: since } },
        { fields: ['createdAt'], orderBy: { createdAt: 'asc' } },
      );
      if (recent.length >= limit) {
        const freesAt = (recent[0] as ContactMessage).createdAt.getTime() + windowSeconds * 1000;
        throw new TooManyRequestsException(CONTACT_RATE_LIMIT_MESSAGE, Math.max(1, Math.ceil((freesAt - Date.now()) / 1000)));
      }

      // Addresses compare case-insensitively, so "Victim@x" and "VICTIM@x" share one allowance.
      const email = request.email.toLowerCase();
      await this.lock(tx, `contact-ack:${email}`);
      const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
      const acknowledged = await tx.count(ContactMessage, { email, acknowledgementDue: true, createdAt: { $gt: dayAgo } });

      const stored = tx.create(ContactMessage, {
        ...request,
        email,
        clientIp,
        createdAt: new Date(),
        acknowledgementDue: acknowledged < ACKNOWLEDGEMENTS_PER_ADDRESS_PER_DAY,
      });
      tx.persist(stored);
      this.events.publish(tx, 'contact.received', { contactMessageId: stored.id });
      return stored;
    });
    return { id: message.id, receivedAt: message.createdAt.toISOString() };
  }

  private async lock(tx: EntityManager, key: string): Promise<void> {
    await tx.getConnection().execute(`select pg_advisory_xact_lock(hashtext(?))`, [key], 'all', tx.getTransactionContext());
  }
}
