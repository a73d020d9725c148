import { EntityManager, LockMode, UniqueConstraintViolationException } from '@mikro-orm/postgresql';
import { ConflictException, ForbiddenException, Inject, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { findKeysetPage, type SortKey } from '../../common/keyset-pagination.js';
import { isUuid } from '../../common/uuid.js';
import {
  REVIEW_EDIT_HOURS,
  REVIEW_TEXTS,
  REVIEW_WAIT_HOURS,
  REVIEW_WRITES_PER_DAY,
  REVIEWS_PAGE,
  shownRating,
} from '../../contracts/reviews.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { type ConversationDeal, Deals } from '../messaging/deals.js';
import { ReviewTally } from '../users/review-tally.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { User } from '../users/user.entity.js';
import type { ReviewEligibility, ReviewEditRequest, ReviewRequest, ReviewsPage, ReviewView } from './dto/review.dto.js';
import { Review } from './review.entity.js';

const HOUR = 3600_000;
const NEWEST_FIRST: ReadonlyArray<SortKey<Review>> = [
  { field: 'createdAt', direction: 'desc', type: 'timestamptz' },
  { field: 'id', direction: 'desc', type: 'uuid' },
];

/** A refusal: the status and the message the member reads. */
type Refusal = { status: 403 | 404 | 409; message: string };

/**
 * Reviews after a real deal (issue 23 §3). Who may review whom is messaging's deal rule (Deals),
 * plus: not yourself, not across a block, not before 24 hours from the first message, once per
 * listing (a unique index). The member's shown count and stars are kept on their account row
 * (ReviewTally) in the review's transaction.
 */
@Injectable()
export class ReviewsService implements OnModuleInit {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(Deals) private readonly deals: Deals,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(ReviewTally) private readonly tally: ReviewTally,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.userData.addPart({
      name: 'reviews',
      exportFor: async (userId) => {
        const em = this.em.fork();
        const [written, received] = await Promise.all([
          em.find(Review, { reviewer: userId }, { orderBy: { createdAt: 'asc' } }),
          em.find(Review, { reviewed: userId }, { orderBy: { createdAt: 'asc' } }),
        ]);
        const exported = (r: Review) => ({
          listing: r.listingTitle,
          stars: r.stars,
          text: r.text,
          written_at: r.createdAt.toISOString(),
          reply: r.reply ?? null,
          hidden_by_staff: r.hiddenAt !== null && r.hiddenAt !== undefined,
        });
        return { written: written.map(exported), received: received.map(exported) };
      },
    });
  }

  /** A member's shown reviews, newest first, a page at a time, with their count and average. */
  async of(userId: string, viewerId: string | undefined, cursor?: string): Promise<ReviewsPage> {
    const em = this.em.fork();
    const member = isUuid(userId) ? await em.findOne(User, { id: userId, deletedAt: null }) : null;
    if (!member || (!member.profileVisible && member.id !== viewerId)) throw new NotFoundException('Profile not found');
    const page = await findKeysetPage(
      em,
      Review,
      { reviewed: userId, hiddenAt: null },
      { sort: NEWEST_FIRST, limit: REVIEWS_PAGE, cursor },
    );
    return {
      count: member.reviewCount,
      average: shownRating(member.reviewCount, member.reviewStarsTotal)?.average ?? null,
      reviews: await this.views(em, page.items, viewerId),
      next_cursor: page.nextCursor,
    };
  }

  /** What a notification says of a shown review: whom it is of, by whom, how many stars, about what. */
  async brief(
    id: string,
  ): Promise<{ reviewedId: string; authorId: string | null; authorName: string; stars: number; listingTitle: string } | null> {
    const em = this.em.fork();
    const review = await em.findOne(Review, { id, hiddenAt: null });
    if (!review) return null;
    const [view] = await this.views(em, [review], undefined);
    return {
      reviewedId: review.reviewed,
      authorId: view!.author.id,
      authorName: view!.author.name,
      stars: review.stars,
      listingTitle: review.listingTitle,
    };
  }

  /** Whether the member may review the other person of a conversation now, and why not. */
  async eligibility(userId: string, conversationId: string): Promise<ReviewEligibility> {
    const deal = await this.deals.inConversation(conversationId, userId);
    if (!deal) throw new NotFoundException(REVIEW_TEXTS.conversationNotFound);
    const otherId = deal.starterId === userId ? deal.ownerId : deal.starterId;
    const em = this.em.fork();
    const [other, mine] = await Promise.all([
      em.findOne(User, { id: otherId }),
      em.findOne(Review, { reviewer: userId, reviewed: otherId, listingId: deal.listingId }),
    ]);
    const refusal = mine ? { status: 409, message: REVIEW_TEXTS.already } : await this.refusal(userId, deal, other);
    return {
      can_review: refusal === null,
      reason: refusal?.message ?? null,
      reviewed_id: otherId,
      reviewed_name: other && !other.deletedAt ? other.fullName : REVIEW_TEXTS.deletedAuthor,
      listing_title: deal.listingTitle,
      review: mine ? ((await this.views(em, [mine], userId))[0] ?? null) : null,
    };
  }

  /** Writes the review, counts it on the reviewed member and publishes review.published, in one transaction. */
  async write(reviewer: User, request: ReviewRequest): Promise<ReviewView> {
    const deal = await this.deals.inConversation(request.conversation_id, reviewer.id);
    if (!deal) throw new NotFoundException(REVIEW_TEXTS.conversationNotFound);
    const otherId = deal.starterId === reviewer.id ? deal.ownerId : deal.starterId;
    const other = await this.em.fork().findOne(User, { id: otherId });
    const refusal = await this.refusal(reviewer.id, deal, other);
    if (refusal) throw refused(refusal);
    if (await this.em.fork().count(Review, { reviewer: reviewer.id, reviewed: otherId, listingId: deal.listingId }))
      throw new ConflictException(REVIEW_TEXTS.already);
    await this.limits.consume({ key: `reviews:author:${reviewer.id}`, ...REVIEW_WRITES_PER_DAY }, () => REVIEW_TEXTS.tooMany);
    try {
      const review = await this.em.transactional(async (tx) => {
        const created = tx.create(Review, {
          reviewer: reviewer.id,
          reviewed: otherId,
          listingId: deal.listingId,
          listingTitle: deal.listingTitle.slice(0, 150),
          conversationId: deal.conversationId,
          stars: request.stars,
          text: request.text,
          createdAt: this.clock.now(),
        });
        tx.persist(created);
        await tx.flush();
        await this.tally.add(tx, otherId, 1, request.stars);
        this.events.publish(tx, 'review.published', { reviewId: created.id });
        return created;
      });
      return (await this.views(this.em.fork(), [review], reviewer.id))[0]!;
    } catch (error) {
      // Two at once: the unique index keeps one.
      if (error instanceof UniqueConstraintViolationException) throw new ConflictException(REVIEW_TEXTS.already);
      throw error;
    }
  }

  /** Its author changes the stars and text, within 48 hours of writing it. */
  async edit(author: User, id: string, request: ReviewEditRequest): Promise<ReviewView> {
    await this.limits.consume({ key: `reviews:author:${author.id}`, ...REVIEW_WRITES_PER_DAY }, () => REVIEW_TEXTS.tooMany);
    const review = await this.em.transactional(async (tx) => {
      const review = await this.locked(tx, id);
      if (review.reviewer !== author.id) throw new ForbiddenException(REVIEW_TEXTS.notYours);
      if (!this.withinEditWindow(review.createdAt)) throw new ConflictException(REVIEW_TEXTS.editClosed);
      if (!review.hiddenAt) await this.tally.add(tx, review.reviewed, 0, request.stars - review.stars);
      review.stars = request.stars;
      review.text = request.text;
      review.editedAt = this.clock.now();
      return review;
    });
    return (await this.views(this.em.fork(), [review], author.id))[0]!;
  }

  /** The member reviewed answers, once; `edit` changes the answer within 48 hours of writing it. Counts in the day's reviews and changes. */
  async reply(member: User, id: string, text: string, edit: boolean): Promise<ReviewView> {
    await this.limits.consume({ key: `reviews:author:${member.id}`, ...REVIEW_WRITES_PER_DAY }, () => REVIEW_TEXTS.tooMany);
    const review = await this.em.transactional(async (tx) => {
      const review = await this.locked(tx, id);
      if (review.reviewed !== member.id) throw new ForbiddenException(REVIEW_TEXTS.replyNotYours);
      if (!edit && review.repliedAt) throw new ConflictException(REVIEW_TEXTS.alreadyReplied);
      if (edit && !review.repliedAt) throw new NotFoundException(REVIEW_TEXTS.noReply);
      if (edit && !this.withinEditWindow(review.repliedAt!)) throw new ConflictException(REVIEW_TEXTS.replyEditClosed);
      review.reply = text;
      if (edit) review.replyEditedAt = this.clock.now();
      else review.repliedAt = this.clock.now();
      return review;
    });
    return (await this.views(this.em.fork(), [review], member.id))[0]!;
  }

  /** Why `userId` may not review the other person of `deal` now, or null when they may. */
  private async refusal(userId: string, deal: ConversationDeal, other: User | null): Promise<Refusal | null> {
    const otherId = deal.starterId === userId ? deal.ownerId : deal.starterId;
    if (otherId === userId) return { status: 403, message: REVIEW_TEXTS.notYourself };
    if (!other || other.deletedAt) return { status: 403, message: REVIEW_TEXTS.otherGone };
    if (await this.deals.blockedBetween(userId, otherId)) return { status: 403, message: REVIEW_TEXTS.blocked };
    if (!deal.bothWrote) return { status: 403, message: REVIEW_TEXTS.bothMustWrite };
    if (!deal.how) return { status: 403, message: REVIEW_TEXTS.noDeal };
    const since = this.clock.now().getTime() - deal.firstMessageAt!.getTime();
    if (since < REVIEW_WAIT_HOURS * HOUR) return { status: 403, message: REVIEW_TEXTS.tooSoon };
    return null;
  }

  private withinEditWindow(since: Date): boolean {
    return this.clock.now().getTime() - since.getTime() < REVIEW_EDIT_HOURS * HOUR;
  }

  /** A shown review, locked for the change. */
  private async locked(tx: EntityManager, id: string): Promise<Review> {
    const review = isUuid(id) ? await tx.findOne(Review, { id, hiddenAt: null }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
    if (!review) throw new NotFoundException(REVIEW_TEXTS.notFound);
    return review;
  }

  /** Reviews as readers see them, their authors read in one query. */
  private async views(em: EntityManager, reviews: Review[], viewerId: string | undefined): Promise<ReviewView[]> {
    const ids = [...new Set(reviews.flatMap((r) => (r.reviewer ? [r.reviewer] : [])))];
    const authors = new Map((ids.length ? await em.find(User, { id: { $in: ids } }) : []).map((u) => [u.id, u]));
    return reviews.map((r) => {
      const author = r.reviewer ? authors.get(r.reviewer) : undefined;
      const shown = author && !author.deletedAt;
      const shownNow = !r.hiddenAt;
      const repliable = shownNow && viewerId === r.reviewed && (!r.repliedAt || this.withinEditWindow(r.repliedAt));
      return {
        id: r.id,
        reviewed_id: r.reviewed,
        author: { id: shown ? author.id : null, name: shown ? author.fullName : REVIEW_TEXTS.deletedAuthor },
        stars: r.stars,
        text: r.text,
        listing_title: r.listingTitle,
        created_at: r.createdAt.toISOString(),
        edited_at: r.editedAt?.toISOString() ?? null,
        reply: r.reply
          ? { text: r.reply, created_at: r.repliedAt!.toISOString(), edited_at: r.replyEditedAt?.toISOString() ?? null }
          : null,
        can_edit: shownNow && viewerId !== undefined && viewerId === r.reviewer && this.withinEditWindow(r.createdAt),
        can_reply: repliable,
      };
    });
  }
}

function refused({ status, message }: Refusal): Error {
  if (status === 404) return new NotFoundException(message);
  if (status === 409) return new ConflictException(message);
  return new ForbiddenException(message);
}
