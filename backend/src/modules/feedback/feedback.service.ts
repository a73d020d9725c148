import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { clientKey } from '../../common/api-rate-limit.js';
import { FEEDBACK_TEXTS } from '../../contracts/feedback.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import type { User } from '../users/user.entity.js';
import type { FeedbackRequest, FeedbackSubmittedResponse } from './dto/feedback.request.js';
import { Feedback } from './feedback.entity.js';

/** Feedback one client may send per window: enough for a real user, too few to flood staff. */
export const FEEDBACK_PER_CLIENT = { limit: 5, windowSeconds: 15 * 60 };

/** Receives feedback from /feedback; staff read it through the inbox (FeedbackInbox). */
@Injectable()
export class FeedbackService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Stores the feedback and publishes `feedback.received` in one transaction; 429 past the client's limit. */
  async submit(request: FeedbackRequest, clientIp: string, user: User | undefined): Promise<FeedbackSubmittedResponse> {
    await this.limits.consume({ key: `feedback:${clientKey(clientIp)}`, ...FEEDBACK_PER_CLIENT }, () => FEEDBACK_TEXTS.rateLimited);
    const feedback = await this.em.fork().transactional(async (tx) => {
      const stored = tx.create(Feedback, {
        name: request.name,
        email: request.email.toLowerCase(),
        category: request.category,
        rating: request.rating,
        message: request.message,
        user: user?.id ?? null,
        createdAt: this.clock.now(),
      });
      tx.persist(stored);
      this.events.publish(tx, 'feedback.received', { feedbackId: stored.id });
      return stored;
    });
    return { id: feedback.id, receivedAt: feedback.createdAt.toISOString() };
  }
}
