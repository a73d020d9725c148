import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, NotFoundException } from '@nestjs/common';
import { clientKey } from '../../common/api-rate-limit.js';
import { findKeysetPage, type KeysetPage } from '../../common/keyset-pagination.js';
import { FEEDBACK_TEXTS, type FeedbackCategory } from '../../contracts/feedback.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import type { User } from '../users/user.entity.js';
import type { FeedbackRequest, FeedbackSubmittedResponse } from './dto/feedback.request.js';
import { Feedback, type FeedbackStatus } from './feedback.entity.js';

/** Feedback one client may send per window: enough for a real user, too few to flood staff. */
export const FEEDBACK_PER_CLIENT = { limit: 5, windowSeconds: 15 * 60 };

/** A piece of feedback as other modules (the staff inbox) read it. */
export interface FeedbackEntry {
  id: string;
  name: string;
  email: string;
  category: FeedbackCategory;
  rating: number;
  message: string;
  userId: string | null;
  status: FeedbackStatus;
  createdAt: Date;
}

export interface FeedbackListQuery {
  status?: FeedbackStatus;
  category?: FeedbackCategory;
  rating?: number;
  /** From the previous page's `nextCursor`. */
  cursor?: string;
  limit?: number;
}

/**
 * Receives feedback from /feedback, and is the read API the staff inbox uses (list, get, mark):
 * other modules never read the feedback table.
 */
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

  /** Newest first, in pages (keyset), filtered by status, category and rating. */
  async list(query: FeedbackListQuery = {}): Promise<KeysetPage<FeedbackEntry>> {
    const where = {
      ...(query.status ? { status: query.status } : {}),
      ...(query.category ? { category: query.category } : {}),
      ...(query.rating ? { rating: query.rating } : {}),
    };
    const page = await findKeysetPage(this.em.fork(), Feedback, where, {
      sort: [
        { field: 'createdAt', direction: 'desc' },
        { field: 'id', direction: 'desc' },
      ],
      limit: Math.min(Math.max(query.limit ?? 20, 1), 100),
      cursor: query.cursor,
    });
    return { items: page.items.map(entryOf), nextCursor: page.nextCursor };
  }

  /** One piece of feedback; 404 when there is none with that id. */
  async get(id: string): Promise<FeedbackEntry> {
    return entryOf(await this.load(this.em.fork(), id));
  }

  /** Sets where staff are with it (read, archived, or back to new); 404 when there is none with that id. */
  async mark(id: string, status: FeedbackStatus): Promise<FeedbackEntry> {
    const em = this.em.fork();
    const feedback = await this.load(em, id);
    feedback.status = status;
    await em.flush();
    return entryOf(feedback);
  }

  private async load(em: EntityManager, id: string): Promise<Feedback> {
    const feedback = /^[0-9a-f-]{36}$/i.test(id) ? await em.findOne(Feedback, { id }) : null;
    if (!feedback) throw new NotFoundException('Feedback not found');
    return feedback;
  }
}

function entryOf(feedback: Feedback): FeedbackEntry {
  return {
    id: feedback.id,
    name: feedback.name,
    email: feedback.email,
    category: feedback.category,
    rating: feedback.rating,
    message: feedback.message,
    userId: feedback.user?.id ?? null,
    status: feedback.status,
    createdAt: feedback.createdAt,
  };
}
