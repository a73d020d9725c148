import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, Inject, Injectable } from '@nestjs/common';
import { clientKey } from '../../common/api-rate-limit.js';
import { NEWSLETTER_TEXTS } from '../../contracts/newsletter.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { newToken, tokenHash } from '../auth/secrets.js';
import { User } from '../users/user.entity.js';
import { NewsletterSubscription } from './newsletter-subscription.entity.js';

/** Sign-ups one client may make per window (429 past it). */
export const SIGN_UPS_PER_CLIENT = { limit: 5, windowSeconds: 15 * 60 };
/** Mails one address receives from sign-ups per day at most, whoever types it in; past it, the same answer and no mail. */
export const MAILS_PER_ADDRESS_PER_DAY = 3;

/**
 * The newsletter list with double opt-in. Every sign-up gets the same answer whether the address
 * is new, pending, confirmed or unsubscribed, and one mail goes to the address (a confirmation
 * link, or a note that it is already subscribed), so the form tells nobody who is on the list.
 */
@Injectable()
export class NewsletterService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async subscribe(email: string, clientIp: string): Promise<string> {
    await this.limits.consume({ key: `newsletter:${clientKey(clientIp)}`, ...SIGN_UPS_PER_CLIENT }, () => NEWSLETTER_TEXTS.rateLimited);
    const withinAllowance = await this.limits.allows({
      key: `newsletter-address:${email}`,
      limit: MAILS_PER_ADDRESS_PER_DAY,
      windowSeconds: 24 * 3600,
    });
    if (!withinAllowance) return NEWSLETTER_TEXTS.checkInbox;

    await this.em.fork().transactional(async (tx) => {
      // One row per address: concurrent sign-ups of one address wait for each other.
      await tx
        .getConnection()
        .execute(`select pg_advisory_xact_lock(hashtext(?))`, [`newsletter:${email}`], 'all', tx.getTransactionContext());
      const now = this.clock.now();
      let subscription = await tx.findOne(NewsletterSubscription, { email });
      if (!subscription) {
        subscription = tx.create(NewsletterSubscription, { email, unsubscribeToken: newToken(), requestedAt: now });
        tx.persist(subscription);
      } else if (subscription.status !== 'confirmed') {
        subscription.status = 'pending';
        subscription.requestedAt = now;
        subscription.unsubscribedAt = undefined;
      }
      if (!subscription.user) {
        const account = await tx.findOne(User, { email, deletedAt: null }, { fields: ['id'] });
        if (account) subscription.user = tx.getReference(User, account.id, { wrapped: true });
      }
      this.events.publish(tx, 'newsletter.subscription-requested', { subscriptionId: subscription.id });
    });
    return NEWSLETTER_TEXTS.checkInbox;
  }

  /** Confirms the address of a pending sign-up; the link works once, before it expires. */
  async confirm(token: string): Promise<string> {
    await this.em.fork().transactional(async (tx) => {
      const subscription = await tx.findOne(
        NewsletterSubscription,
        { confirmTokenHash: tokenHash(token), status: 'pending' },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      const now = this.clock.now();
      if (!subscription || !subscription.confirmExpiresAt || subscription.confirmExpiresAt <= now) {
        throw new BadRequestException(NEWSLETTER_TEXTS.confirmLinkInvalid);
      }
      subscription.status = 'confirmed';
      subscription.confirmedAt = now;
      subscription.confirmTokenHash = undefined;
      subscription.confirmExpiresAt = undefined;
      this.events.publish(tx, 'newsletter.confirmed', { subscriptionId: subscription.id });
    });
    return NEWSLETTER_TEXTS.confirmed;
  }

  /** One click from any newsletter mail; clicking again says the same. */
  async unsubscribe(token: string): Promise<string> {
    await this.em.fork().transactional(async (tx) => {
      const subscription = await tx.findOne(NewsletterSubscription, { unsubscribeToken: token }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!subscription) throw new BadRequestException(NEWSLETTER_TEXTS.unsubscribeLinkInvalid);
      if (subscription.status === 'unsubscribed') return;
      subscription.status = 'unsubscribed';
      subscription.unsubscribedAt = this.clock.now();
      subscription.confirmTokenHash = undefined;
      subscription.confirmExpiresAt = undefined;
    });
    return NEWSLETTER_TEXTS.unsubscribed;
  }
}
