import type { TextRule } from './text-rules.js';

/**
 * Reviews (issue 23 §3): after a real deal here, either party reviews the other once per listing,
 * 1 to 5 stars and a text; the reviewed party may reply once. Facts the API and the browser share.
 */
export const REVIEW_RULES = {
  text: { label: 'Review', minLength: 20, maxLength: 1000, format: (value: string) => directionControlError('Review', value) },
  reply: { label: 'Reply', minLength: 2, maxLength: 1000, format: (value: string) => directionControlError('Reply', value) },
} as const satisfies Record<string, TextRule>;

/**
 * Unicode's direction embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they make
 * text read in another order than it is written ("gnp.exe" shown as "exe.png"), so a review could
 * seem to say what it does not. Right-to-left writing itself and the plain marks (U+200E, U+200F) pass.
 */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;

/** The message when `value` holds a direction control, or undefined. */
export function directionControlError(label: string, value: string): string | undefined {
  return DIRECTION_CONTROLS.test(value) ? `${label} must not contain characters that change the direction of text` : undefined;
}

export const REVIEW_STARS_MIN = 1;
export const REVIEW_STARS_MAX = 5;
/** A review may be written this long after the conversation's first message at the earliest. */
export const REVIEW_WAIT_HOURS = 24;
/** A review and its reply can be changed this long after they were written. */
export const REVIEW_EDIT_HOURS = 48;
/** Cards and listing pages show a seller's average only from this many shown reviews. */
export const REVIEWS_SHOWN_FROM = 3;
/** Reviews one member may write (or change) in a day. */
export const REVIEW_WRITES_PER_DAY = { limit: 20, windowSeconds: 24 * 3600 };
/** Reviews on one page of a profile. */
export const REVIEWS_PAGE = 10;

export const REVIEW_TEXTS = {
  starsRequired: 'Please choose from 1 to 5 stars',
  notFound: 'That review does not exist or is no longer shown.',
  conversationNotFound: 'That conversation does not exist.',
  noListing: 'Reviews are about a deal over a listing; this conversation is not about one.',
  notYourself: 'You cannot review yourself.',
  blocked: 'You cannot review a member you have blocked or who has blocked you.',
  otherGone: 'This member has deleted their account.',
  bothMustWrite: 'You can review once you have both written in this conversation.',
  noDeal: 'You can review once a booking has been accepted or the seller has marked the listing sold or let.',
  tooSoon: 'You can review once 24 hours have passed since the first message here.',
  already: 'You have already reviewed this member for this listing; you can change your review for 48 hours.',
  editClosed: 'Reviews can be changed for 48 hours after they are written; this one can no longer be changed.',
  notYours: 'Only its author can change a review.',
  replyNotYours: 'Only the member who was reviewed can reply.',
  alreadyReplied: 'You have already replied to this review; you can change your reply for 48 hours.',
  noReply: 'There is no reply to change yet.',
  replyEditClosed: 'Replies can be changed for 48 hours after they are written; this one can no longer be changed.',
  tooMany: 'You have written a lot of reviews today. Please wait a while before writing more.',
  hidden: 'This review was hidden by our team.',
  alreadyHidden: 'This review is already hidden.',
  notHidden: 'This review is not hidden.',
  deletedAuthor: 'Deleted user',
} as const;

/** Whether `value` is a whole number of stars; the message otherwise. */
export function starsError(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= REVIEW_STARS_MIN && value <= REVIEW_STARS_MAX
    ? undefined
    : REVIEW_TEXTS.starsRequired;
}

/** A member's rating as cards show it: the average to one decimal and the count, or null under REVIEWS_SHOWN_FROM reviews. */
export function shownRating(count: number, starsTotal: number): { average: number; count: number } | null {
  if (count < REVIEWS_SHOWN_FROM) return null;
  return { average: Math.round((starsTotal / count) * 10) / 10, count };
}
