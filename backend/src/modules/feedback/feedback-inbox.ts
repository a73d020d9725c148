import { EntityManager, type FilterQuery } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { categoryLabel, FEEDBACK_CATEGORY_VALUES, FEEDBACK_RATING_MAX, type FeedbackCategory } from '../../contracts/feedback.js';
import { RESPONSE_HOURS } from '../../contracts/staff.js';
import { hoursBefore, type InboxItem, type InboxItemDetail, InboxSourceBase, InboxSources } from '../staff/inbox/inbox-source.js';
import { Feedback } from './feedback.entity.js';

/** Feedback that is urgent (SPEC §9: reviewed within 24 hours rather than 48). */
export const URGENT_FEEDBACK: readonly FeedbackCategory[] = ['bug-report'];

/**
 * Feedback in the staff inbox: filtered by its category and rating, reviewed within 48 hours,
 * urgent feedback (a bug report) within 24.
 */
@Injectable()
export class FeedbackInbox extends InboxSourceBase<Feedback> {
  readonly kind = 'feedback' as const;
  protected readonly entity = Feedback;
  protected readonly responseHours = RESPONSE_HOURS.feedback;

  constructor(@Inject(EntityManager) em: EntityManager, @Inject(InboxSources) registry: InboxSources) {
    super(em, registry);
  }

  protected override categoryWhere(category: string): FilterQuery<Feedback> | undefined {
    return (FEEDBACK_CATEGORY_VALUES as string[]).includes(category) ? { category: category as FeedbackCategory } : undefined;
  }

  protected override ratingWhere(rating: number): FilterQuery<Feedback> | undefined {
    return Number.isInteger(rating) && rating >= 1 && rating <= FEEDBACK_RATING_MAX ? { rating } : undefined;
  }

  protected override dueAt(feedback: Feedback): Date {
    const hours = URGENT_FEEDBACK.includes(feedback.category) ? RESPONSE_HOURS.urgentFeedback : RESPONSE_HOURS.feedback;
    return new Date(feedback.createdAt.getTime() + hours * 3600_000);
  }

  protected override overdueWhere(now: Date): FilterQuery<Feedback> {
    return {
      $or: [
        { createdAt: { $lt: hoursBefore(now, RESPONSE_HOURS.feedback) } },
        { category: { $in: [...URGENT_FEEDBACK] }, createdAt: { $lt: hoursBefore(now, RESPONSE_HOURS.urgentFeedback) } },
      ],
    };
  }

  protected toItem(feedback: Feedback): InboxItem {
    const label = categoryLabel(feedback.category);
    return {
      ...this.tracked(feedback),
      subject: `Feedback: ${label}, rated ${feedback.rating}/5`,
      from: { name: feedback.name, email: feedback.email },
      preview: feedback.message.slice(0, 140),
      category: feedback.category,
      categoryLabel: label,
      rating: feedback.rating,
      target: null,
    };
  }

  protected toDetail(feedback: Feedback): InboxItemDetail {
    const item = this.toItem(feedback);
    return {
      ...item,
      body: feedback.message,
      fields: [
        { label: 'Name', value: feedback.name },
        { label: 'Email', value: feedback.email },
        { label: 'Category', value: item.categoryLabel ?? feedback.category },
        { label: 'Rating', value: `${feedback.rating} of 5` },
        { label: 'Sent', value: feedback.user ? 'signed in' : 'as a visitor' },
      ],
    };
  }
}
