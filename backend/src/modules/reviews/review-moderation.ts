import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { ConflictException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { isUuid } from '../../common/uuid.js';
import { REVIEW_TEXTS } from '../../contracts/reviews.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { ReviewTally } from '../users/review-tally.js';
import { User } from '../users/user.entity.js';
import { Review } from './review.entity.js';

/**
 * What reports and staff do to reviews: find one to report, hide it (it drops out of lists and
 * averages; its author is mailed the reason) and restore it. Hide and restore work in the caller's
 * transaction, so the staff module writes its audit entry with the change.
 */
@Injectable()
export class ReviewModeration {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(ReviewTally) private readonly tally: ReviewTally,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** A shown review others may report, labelled for the inbox; its author counts as its owner. */
  async reportable(id: string): Promise<{ id: string; label: string; ownerId: string | null } | null> {
    const review = isUuid(id) ? await this.em.fork().findOne(Review, { id, hiddenAt: null }) : null;
    return review && { id: review.id, label: `${review.stars}★ about "${review.listingTitle}"`, ownerId: review.reviewer };
  }

  /** A review as staff read it in the inbox, hidden or not. */
  async summary(
    id: string,
  ): Promise<{ id: string; stars: number; text: string; authorName: string; reviewedId: string; hidden: boolean } | null> {
    const em = this.em.fork();
    const review = isUuid(id) ? await em.findOne(Review, { id }) : null;
    if (!review) return null;
    const author = review.reviewer ? await em.findOne(User, { id: review.reviewer }) : null;
    return {
      id: review.id,
      stars: review.stars,
      text: review.text,
      authorName: author && !author.deletedAt ? author.fullName : REVIEW_TEXTS.deletedAuthor,
      reviewedId: review.reviewed,
      hidden: Boolean(review.hiddenAt),
    };
  }

  async hide(tx: EntityManager, id: string, reason: string): Promise<void> {
    const review = await this.locked(tx, id);
    if (review.hiddenAt) throw new ConflictException(REVIEW_TEXTS.alreadyHidden);
    review.hiddenAt = new Date();
    review.hiddenReason = reason;
    await this.tally.add(tx, review.reviewed, -1, -review.stars);
    this.events.publish(tx, 'review.hidden', { reviewId: review.id });
  }

  async restore(tx: EntityManager, id: string): Promise<void> {
    const review = await this.locked(tx, id);
    if (!review.hiddenAt) throw new ConflictException(REVIEW_TEXTS.notHidden);
    review.hiddenAt = null;
    review.hiddenReason = null;
    await this.tally.add(tx, review.reviewed, 1, review.stars);
  }

  /** Tells the author their review was hidden, and why; once per hiding (the key names the event). */
  @OnDomainEvent('review.hidden', { name: 'reviews.mail-hidden', queue: 'mail' })
  async mailHidden(event: DomainEvent<'review.hidden'>): Promise<void> {
    const em = this.em.fork();
    const review = await em.findOne(Review, { id: event.payload.reviewId, hiddenAt: { $ne: null } });
    const author = review?.reviewer ? await em.findOne(User, { id: review.reviewer }) : null;
    if (!review || !author || author.deletedAt) return;
    await this.mail.send({
      key: `review-${review.id}.hidden.${event.id}`,
      to: author.email,
      subject: `Your review about "${review.listingTitle}" has been hidden by our team`,
      text: [
        `Hello ${author.fullName},`,
        '',
        `Our team has hidden your review about "${review.listingTitle}" after it was reported. Nobody else sees it now.`,
        '',
        'The reason we gave:',
        review.hiddenReason ?? '(none given)',
        '',
        `If you think this is a mistake, write to us: ${this.config.publicUrl}/contact`,
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }

  private async locked(tx: EntityManager, id: string): Promise<Review> {
    const review = isUuid(id) ? await tx.findOne(Review, { id }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!review) throw new NotFoundException(REVIEW_TEXTS.notFound);
    return review;
  }
}
