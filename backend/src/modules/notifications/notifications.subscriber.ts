import { formatPounds } from '../../contracts/listing-display.js';
import { Inject, Injectable } from '@nestjs/common';
import { previewOf } from '../../contracts/messaging.js';
import type { NotificationView } from '../../contracts/notifications.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { RealtimeEventLog } from '../../infra/realtime/event-log.js';
import { Realtime, type ServerEvent, type ServerEventPayload } from '../../infra/realtime/realtime.js';
import { ListingsService } from '../listings/listings.service.js';
import { ReviewsService } from '../reviews/reviews.service.js';
import { SavedSearchesService } from '../saved-searches/saved-searches.service.js';
import { MessageSummaries } from './message-summaries.js';
import { type NotificationDraft, NotificationsService } from './notifications.service.js';

/** What a listing's new status means to someone who saved it. */
const STATUS_TEXT: Record<string, string> = {
  live: 'is available again',
  sold: 'has been sold',
  let: 'has been let',
  withdrawn: 'has been withdrawn',
  expired: 'has expired',
  removed: 'has been removed',
};

/**
 * Turns domain events into stored notifications and pushes each to its user's sockets. Each
 * handler is idempotent: one notification per event and user (NotificationsService.createFor),
 * pushed under a key so a retry re-sends the same seq, which the browser drops.
 */
@Injectable()
export class NotificationsSubscriber {
  constructor(
    @Inject(NotificationsService) private readonly notifications: NotificationsService,
    @Inject(ListingsService) private readonly listings: ListingsService,
    @Inject(MessageSummaries) private readonly messages: MessageSummaries,
    @Inject(Realtime) private readonly realtime: Realtime,
    @Inject(RealtimeEventLog) private readonly eventLog: RealtimeEventLog,
    @Inject(SavedSearchesService) private readonly savedSearches: SavedSearchesService,
    @Inject(ReviewsService) private readonly reviews: ReviewsService,
  ) {}

  /** New Listing Available: to the followers of its category (every rental is in Rentals), never its seller. */
  @OnDomainEvent('listing.published', { name: 'notifications.new-listing', queue: 'notifications' })
  async newListing(event: DomainEvent<'listing.published'>): Promise<void> {
    const listing = await this.listings.brief(event.payload.listingId);
    if (!listing || listing.status !== 'live') return;
    const followers = await this.notifications.followersOf([listing.categorySlug], listing.sellerId);
    await this.notify(
      followers,
      {
        kind: 'NEW_LISTING',
        type: 'info',
        message: `"${listing.title}" was posted in ${listing.categoryName} for ${formatPounds(listing.price)}.`,
        actionUrl: `/listing/${listing.id}`,
        sourceKey: event.id,
      },
      (notification) => [
        'NEW_LISTING',
        { type: 'NEW_LISTING', data: { listing_id: listing.id, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /** A new listing answers the user's wanted ad (once per listing and ad: WantedMatches records it). */
  @OnDomainEvent('wanted.matched', { name: 'notifications.wanted-match', queue: 'notifications' })
  async wantedMatch(event: DomainEvent<'wanted.matched'>): Promise<void> {
    const { listingId, wantedId, ownerId } = event.payload;
    const [listing, wanted] = await Promise.all([this.listings.brief(listingId), this.listings.brief(wantedId)]);
    if (!listing || listing.status !== 'live' || !wanted) return;
    await this.notify(
      [ownerId],
      {
        kind: 'NEW_LISTING',
        type: 'success',
        message: `"${listing.title}" (${formatPounds(listing.price)}) matches your wanted ad "${wanted.title}".`,
        actionUrl: `/listing/${listing.id}`,
        sourceKey: event.id,
      },
      (notification) => [
        'NEW_LISTING',
        { type: 'NEW_LISTING', data: { listing_id: listing.id, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /**
   * Saved searches (instant) matched a listing, new to them or cheaper: to each search's owner, all in one
   * write. Each (search, listing, occasion) is told once: its notification's key is the match's.
   */
  @OnDomainEvent('saved-search.listing-matched', { name: 'notifications.saved-search-matches', queue: 'notifications' })
  async savedSearchesMatched(event: DomainEvent<'saved-search.listing-matched'>): Promise<void> {
    const { listingId, matchedAt } = event.payload;
    await this.tellSavedSearches(listingId, event.occurredAt, () => this.savedSearches.instantMatches(listingId, new Date(matchedAt)));
  }

  /**
   * One saved search matched a listing: the event one matching published per search before it published one a
   * listing (saved-search.listing-matched). An entry of it still queued when this version started is told as that
   * one tells it, under the same key, so never twice.
   */
  @OnDomainEvent('saved-search.matched', { name: 'notifications.saved-search-match', queue: 'notifications' })
  async savedSearchMatched(event: DomainEvent<'saved-search.matched'>): Promise<void> {
    const { savedSearchId, listingId, occasion } = event.payload;
    await this.tellSavedSearches(listingId, event.occurredAt, async () => {
      const search = await this.savedSearches.instantSearch(savedSearchId);
      return search ? [{ ...search, occasion }] : [];
    });
  }

  private async tellSavedSearches(
    listingId: string,
    timestamp: string,
    matchesOf: () => Promise<Array<{ searchId: string; userId: string; name: string; occasion: string }>>,
  ): Promise<void> {
    const listing = await this.listings.brief(listingId);
    if (!listing || listing.status !== 'live') return;
    const drafts = (await matchesOf()).map(({ userId, searchId, name, occasion }) => {
      const drop = occasion !== 'new';
      // A drop names the price it dropped to ("drop:<pence>"), whatever the price is by the time this runs.
      const message = drop
        ? `"${listing.title}" (your saved search "${name}") is now ${formatPounds(Number(occasion.slice('drop:'.length)) / 100)}.`
        : `"${listing.title}" matches your saved search "${name}": ${formatPounds(listing.price)}.`;
      const kind = drop ? ('LISTING_UPDATED' as const) : ('NEW_LISTING' as const);
      const draft: NotificationDraft = {
        kind,
        type: drop ? 'warning' : 'info',
        message,
        actionUrl: `/listing/${listing.id}`,
        sourceKey: `saved-search:${searchId}:${listingId}:${occasion}`,
      };
      return { userId, draft };
    });
    // Every owner's notification written, then logged and sent, each in one statement (a listing may tell thousands).
    const told = await this.notifications.createEach(drafts);
    await this.realtime.deliverToUsers(
      told.map(({ userId, notification }) => {
        const kind = notification.kind === 'LISTING_UPDATED' ? 'LISTING_UPDATED' : 'NEW_LISTING';
        return {
          userId,
          event: kind,
          payload: { type: kind, data: { listing_id: listing.id, notification }, timestamp },
          key: `notification:${notification.id}`,
        };
      }),
    );
  }

  /** Listing Updated: a saved listing's price changed. */
  @OnDomainEvent('listing.updated', { name: 'notifications.listing-price', queue: 'notifications' })
  async listingUpdated(event: DomainEvent<'listing.updated'>): Promise<void> {
    if (!event.payload.changed.includes('pricePence')) return;
    const listing = await this.listings.brief(event.payload.listingId);
    if (!listing || listing.status !== 'live') return;
    await this.tellSavers(listing.id, listing.sellerId, event, `The price of "${listing.title}" is now ${formatPounds(listing.price)}.`);
  }

  /** Listing Updated: a saved listing was sold, let, withdrawn, expired, removed or renewed. */
  @OnDomainEvent('listing.status-changed', { name: 'notifications.listing-status', queue: 'notifications' })
  async listingStatusChanged(event: DomainEvent<'listing.status-changed'>): Promise<void> {
    const { from, to } = event.payload;
    const text = STATUS_TEXT[to];
    if (from === to || !text) return;
    const listing = await this.listings.brief(event.payload.listingId);
    if (!listing) return;
    await this.tellSavers(listing.id, listing.sellerId, event, `"${listing.title}" ${text}.`);
  }

  /** Profile Updated: to the user, whose other tabs and devices reload the profile. */
  @OnDomainEvent('user.profile-updated', { name: 'notifications.profile-updated', queue: 'notifications' })
  async profileUpdated(event: DomainEvent<'user.profile-updated'>): Promise<void> {
    const { userId } = event.payload;
    await this.notify(
      [userId],
      { kind: 'PROFILE_UPDATED', type: 'info', message: 'Your profile was updated.', actionUrl: '/profile', sourceKey: event.id },
      (notification) => [
        'PROFILE_UPDATED',
        { type: 'PROFILE_UPDATED', data: { user_id: userId, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /** New Message: to the recipient, with the sender and a 50-character preview when messaging tells them. */
  @OnDomainEvent('message.sent', { name: 'notifications.new-message', queue: 'notifications' })
  async newMessage(event: DomainEvent<'message.sent'>): Promise<void> {
    const { messageId, conversationId, senderId, recipientId } = event.payload;
    if (senderId === recipientId) return;
    const summary = await this.messages.summary(messageId);
    const conversation = summary?.conversationId ?? conversationId;
    await this.notify(
      [recipientId],
      {
        kind: 'NEW_MESSAGE',
        type: 'success',
        message: summary ? `${summary.senderName}: ${previewOf(summary.preview)}` : 'You have a new message.',
        actionUrl: `/messages?conversation=${encodeURIComponent(conversation)}`,
        aboutUserId: senderId,
        sourceKey: event.id,
      },
      (notification) => [
        'MESSAGE_NOTIFICATION',
        {
          type: 'MESSAGE_NOTIFICATION',
          data: { conversation_id: conversation, message_id: messageId, notification },
          timestamp: event.occurredAt,
        },
      ],
    );
  }

  /** The requester's booking was accepted or declined. */
  @OnDomainEvent('booking.decided', { name: 'notifications.booking-decided', queue: 'notifications' })
  async bookingDecided(event: DomainEvent<'booking.decided'>): Promise<void> {
    const { messageId, conversationId, requesterId, decision } = event.payload;
    await this.notify(
      [requesterId],
      {
        kind: 'BOOKING',
        type: decision === 'accepted' ? 'success' : 'warning',
        message: `Your booking request was ${decision}.`,
        actionUrl: `/messages?conversation=${encodeURIComponent(conversationId)}`,
        sourceKey: event.id,
      },
      (notification) => [
        'BOOKING_DECIDED',
        {
          type: 'BOOKING_DECIDED',
          data: { conversation_id: conversationId, message_id: messageId, decision, notification },
          timestamp: event.occurredAt,
        },
      ],
    );
  }

  /** A success story's author: staff published or declined it (the e-mail, with a decline's reason, is the stories module's). */
  @OnDomainEvent('story.decided', { name: 'notifications.story-decided', queue: 'notifications' })
  async storyDecided(event: DomainEvent<'story.decided'>): Promise<void> {
    const { authorId, decision } = event.payload;
    await this.notify(
      [authorId],
      {
        kind: 'STORY',
        type: decision === 'approved' ? 'success' : 'warning',
        message:
          decision === 'approved' ? 'Your success story is published.' : 'Your success story was not published; the e-mail says why.',
        actionUrl: '/success-stories',
        sourceKey: event.id,
      },
      (notification) => [
        'PROFILE_UPDATED',
        { type: 'PROFILE_UPDATED', data: { user_id: authorId, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /** The owner of a listing staff hid: what staff decided about their appeal (the e-mail is the listings module's). */
  @OnDomainEvent('listing.appeal-decided', { name: 'notifications.appeal-decided', queue: 'notifications' })
  async appealDecided(event: DomainEvent<'listing.appeal-decided'>): Promise<void> {
    const { listingId, ownerId, decision } = event.payload;
    const listing = await this.listings.brief(listingId);
    if (!listing) return;
    const approved = decision === 'approved';
    await this.notify(
      [ownerId],
      {
        kind: 'LISTING_UPDATED',
        type: approved ? 'success' : 'warning',
        message: approved
          ? `Your appeal was upheld: "${listing.title}" is restored.`
          : `Your appeal was declined: "${listing.title}" stays hidden.`,
        actionUrl: `/listing/${listingId}`,
        sourceKey: event.id,
      },
      (notification) => [
        'LISTING_UPDATED',
        { type: 'LISTING_UPDATED', data: { listing_id: listingId, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /** New Review: to the member reviewed, with who and how many stars; View opens the reviews on their profile. */
  @OnDomainEvent('review.published', { name: 'notifications.review-published', queue: 'notifications' })
  async reviewPublished(event: DomainEvent<'review.published'>): Promise<void> {
    const review = await this.reviews.brief(event.payload.reviewId);
    if (!review) return;
    await this.notify(
      [review.reviewedId],
      {
        kind: 'REVIEW',
        type: 'success',
        message: `${review.authorName} left you a ${review.stars}-star review about "${review.listingTitle}".`,
        actionUrl: `/profile/${review.reviewedId}#reviews`,
        aboutUserId: review.authorId ?? undefined,
        sourceKey: event.id,
      },
      (notification) => [
        'REVIEW_RECEIVED',
        { type: 'REVIEW_RECEIVED', data: { review_id: event.payload.reviewId, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /** The owner of a listing staff hid: staff upheld the hiding without an appeal (the e-mail is the listings module's). */
  @OnDomainEvent('listing.case-closed', { name: 'notifications.case-closed', queue: 'notifications' })
  async caseClosed(event: DomainEvent<'listing.case-closed'>): Promise<void> {
    const { listingId, ownerId } = event.payload;
    const listing = await this.listings.brief(listingId);
    if (!listing) return;
    await this.notify(
      [ownerId],
      {
        kind: 'LISTING_UPDATED',
        type: 'warning',
        message: `Our team closed the case: "${listing.title}" stays hidden. You may delete it.`,
        actionUrl: `/listing/${listingId}`,
        sourceKey: event.id,
      },
      (notification) => [
        'LISTING_UPDATED',
        { type: 'LISTING_UPDATED', data: { listing_id: listingId, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /** A deleted account's notifications, follows and event log. */
  @OnDomainEvent('user.deleted', { name: 'notifications.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    await this.notifications.forget(event.payload.userId);
    await this.eventLog.forget(event.payload.userId);
  }

  private async tellSavers(
    listingId: string,
    sellerId: string,
    event: DomainEvent<'listing.updated' | 'listing.status-changed'>,
    message: string,
  ): Promise<void> {
    const savers = (await this.listings.saverIds(listingId)).filter((id) => id !== sellerId);
    await this.notify(
      savers,
      { kind: 'LISTING_UPDATED', type: 'warning', message, actionUrl: `/listing/${listingId}`, sourceKey: event.id },
      (notification) => [
        'LISTING_UPDATED',
        { type: 'LISTING_UPDATED', data: { listing_id: listingId, notification }, timestamp: event.occurredAt },
      ],
    );
  }

  /** Stores, then pushes each user's notification; awaited, so a failed push is retried with the job. */
  private async notify<E extends ServerEvent>(
    userIds: string[],
    draft: NotificationDraft,
    event: (notification: NotificationView) => [E, ServerEventPayload<E>],
  ): Promise<void> {
    for (const { userId, notification } of await this.notifications.createFor(userIds, draft)) {
      const [name, payload] = event(notification);
      await this.realtime.deliverToUser(userId, name, payload, { key: `notification:${notification.id}` });
    }
  }
}
