/**
 * Every domain event: its name and payload, declared once. A use case publishes an event in the
 * same transaction as its rows (DomainEvents.publish); each subscriber (@OnDomainEvent) then runs
 * as its own job, with its own retries, so a failing subscriber never blocks or repeats another.
 *
 * Payloads carry ids, not copies of rows: a subscriber reads the current state, which is what an
 * at-least-once job needs to stay idempotent.
 */
export interface DomainEventPayloads {
  /** A visitor sent the contact form; the message is stored. */
  'contact.received': { contactMessageId: string };
  /** Someone sent the feedback form; the feedback is stored. */
  'feedback.received': { feedbackId: string };

  /** Someone asked to subscribe an address to the newsletter (a confirmation link is due, or an "already subscribed" note). */
  'newsletter.subscription-requested': { subscriptionId: string };
  /** The address was confirmed from its link: the subscription is live. */
  'newsletter.confirmed': { subscriptionId: string };

  /** A user uploaded an image; its original is stored and its variants are to be made. */
  'image.uploaded': { imageId: string };
  /**
   * Image rows were deleted (replaced on a listing, the listing deleted, never attached, the owner
   * deleted): their stored files are to be removed. Carries the keys, since the rows are gone.
   */
  'image.files-orphaned': { keys: string[] };

  /** Someone created an account with a password: it needs its address confirmed. */
  'user.registered': { userId: string };
  /** A signed-in user asked for a new confirmation link. */
  'user.verification-requested': { userId: string };
  /** Someone tried to sign up with the address of an existing account (told to its owner, not to them). */
  'user.signup-repeated': { userId: string };
  /** Someone asked for a password-reset link for this account. */
  'user.password-reset-requested': { userId: string };
  /** The password was changed or reset; every other session has ended. */
  'user.password-changed': { userId: string; how: 'changed' | 'reset' };
  /** Two-factor sign-in was turned on or off. */
  'user.two-factor-changed': { userId: string; enabled: boolean };
  /**
   * The staff command ended the account's sessions (its role changed) outside any web process:
   * the live connections they opened are to be closed. The command writes the entry for its one
   * subscriber itself (CLOSE_ENDED_SESSION_SOCKETS), having no job registry.
   */
  'user.sessions-ended': { userId: string; sessionIds: string[] };
  /** The profile (name, location, privacy...) changed: the user's other tabs and devices refresh it. */
  'user.profile-updated': { userId: string };
  /** The account has not been used for nearly two years: its owner is warned it will be deleted (once). */
  'user.inactivity-warned': { userId: string };
  /** Staff suspended the account (its sessions ended and its listings hidden in the same transaction). */
  'user.suspended': { userId: string };
  /** Staff lifted the suspension. */
  'user.unsuspended': { userId: string };
  /** The account was deleted: every module removes or anonymises what it holds about the user. */
  'user.deleted': { userId: string };

  /** A listing went live (posted). */
  'listing.published': { listingId: string };
  /** The seller changed a listing's details; `changed` names what (e.g. "price"). */
  'listing.updated': { listingId: string; changed: string[] };
  /** Sold, let, withdrawn, renewed, expired or removed by staff. */
  'listing.status-changed': { listingId: string; from: string; to: string };
  /** The seller deleted it (or the account went). */
  'listing.deleted': { listingId: string; sellerId: string };
  /** Staff hid the listing (status removed); its seller is told why. */
  'listing.removed-by-staff': { listingId: string };
  /** Staff decided the owner's appeal against hiding a listing (approved: restored; declined: upheld); the owner is told. */
  'listing.appeal-decided': { appealId: string; listingId: string; ownerId: string; decision: 'approved' | 'declined' };
  /** Staff upheld a hiding without an appeal and closed its case; the owner is told (and may now delete it). */
  'listing.case-closed': { listingId: string; ownerId: string };
  /** Staff approved or declined a trade seller's request for a business check; the seller is told. */
  'seller.business-check-decided': { verificationId: string };
  /** Staff approved (published) or declined a success story; its author is told. */
  'story.decided': { storyId: string; authorId: string; decision: 'approved' | 'declined' };
  /** A signed-in user reported a listing or a profile; it waits in the staff inbox. */
  'report.received': { reportId: string };
  /** A member of staff replied from the inbox; the reply is to be e-mailed. */
  'inbox.reply-queued': { replyId: string };
  /** A new listing answers a live wanted ad (recorded once per listing and ad): the ad's owner is to be told. */
  'wanted.matched': { listingId: string; wantedId: string; ownerId: string };
  /** A live listing expires within a week: its seller is told, once per publication. */
  'listing.expiring': { listingId: string };

  /** A message was stored in a conversation (text or a booking request); its recipient is to be told. */
  'message.sent': { messageId: string; conversationId: string; senderId: string; recipientId: string };
  /** The listing's owner accepted or declined a booking request; the requester is to be told. */
  'booking.decided': { messageId: string; conversationId: string; requesterId: string; decision: 'accepted' | 'declined' };
  /**
   * Saved searches matched a listing at `matchedAt`: those matches (saved_search_hit rows of that time, newly "new"
   * or a drop in price "drop:<pence>") are to be told in the bells of the instant searches' owners, whose e-mails
   * are batched. One event a listing, however many searches it matched.
   */
  'saved-search.listing-matched': { listingId: string; matchedAt: string };
  /**
   * No longer published (saved-search.listing-matched replaced it): one saved search (instant) matched a listing.
   * Declared so that an entry of it queued by an earlier version is still handled.
   */
  'saved-search.matched': { savedSearchId: string; listingId: string; occasion: string };
  /**
   * No longer published (saved-search.mails-due replaced it): one e-mail's batch to be sent. Declared so that an
   * entry of it queued by an earlier version is still handled.
   */
  'saved-search.mail-due': { userId: string; batchId: string; kind: 'instant' | 'daily' | 'weekly' };
  /**
   * Saved-search matches were gathered into e-mails (instant batches or digests), one a batch (saved_search_mail_part's
   * batch_id): they are to be sent, by one job that reads what they show for all of them at once.
   */
  'saved-search.mails-due': { batchIds: string[]; kind: 'instant' | 'daily' | 'weekly' };
  /** Messages to this recipient stayed unread for 15 minutes: they are to be e-mailed (once per conversation per hour). */
  'conversation.unread-reminder': { conversationId: string; recipientId: string };

  /** A member reviewed the other party of a deal: the member reviewed is to be told (bell, e-mail). */
  'review.published': { reviewId: string };
  /** Staff hid a reported review: its author is to be told why. */
  'review.hidden': { reviewId: string };
}

export type DomainEventName = keyof DomainEventPayloads;

/** What a subscriber receives. */
export interface DomainEvent<N extends DomainEventName = DomainEventName> {
  /** Unique per publish; the same for every subscriber of that publish. */
  id: string;
  name: N;
  occurredAt: string;
  payload: DomainEventPayloads[N];
}
