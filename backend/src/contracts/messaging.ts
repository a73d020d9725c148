import type { BookingQuote } from './booking-quote.js';
/**
 * Messaging facts shared by the API and the browser (SPEC §2 "Messages", §5 "Messaging", §9): the
 * texts of every refusal, the limits, and the shapes of messages pushed live.
 */

/** SPEC §5 "Messaging": title and text of each refusal, as the dialog's toasts show them. */
export const MESSAGING_TEXTS = {
  signInTitle: 'Authentication Required',
  signIn: 'Please sign in to send messages.',
  emptyTitle: 'Message Required',
  empty: 'Please enter a message to send.',
  ownListingTitle: 'Cannot Message Yourself',
  ownListing: 'You cannot send a message to yourself.',
  tooLong: 'Your message is too long: at most 2000 characters.',
  controlCharacters: 'Your message contains characters that cannot be sent.',
  conversationNotFound: 'Conversation not found',
  listingNotFound: 'Listing Not Found',
  listingNotLive: 'This listing is no longer available, so a new conversation cannot be started about it.',
  blockedByThem: 'You cannot send messages to this user.',
  /** Beside a message with bank details, a payment link or a move off Fieldmarket (contracts/message-safety.ts), for its recipient. */
  safetyNotice:
    'Pay only after you have seen the animals or the machine; never pay a deposit to a stranger by bank transfer. Keep the conversation on Fieldmarket.',
  blockedByYou: 'You have blocked this user. Unblock them to send messages.',
  otherGone: 'This user has deleted their account, so they cannot receive messages.',
  cannotBlockYourself: 'You cannot block yourself.',
  userNotFound: 'User not found',
  notYourUserId: 'You can only read or change your own messages.',
  sendFailedTitle: 'Failed to Send Message',
  sendFailed: 'There was an error sending your message. Please try again.',
  sentTitle: 'Message Sent',
  deleteConfirm: 'Are you sure you want to delete this conversation?',
  deleteFailed: 'Failed to delete conversation.',
  unknownUser: 'Unknown User',
  /** The author of what a deleted account wrote: the other party keeps the record, not the person. */
  deletedUser: 'Deleted user',
  searchTooLong: 'Search text must be at most 100 characters.',
} as const;

/** The longest message (characters, after trimming). */
export const MESSAGE_MAX_LENGTH = 2000;
/** Messages one user may send per minute, and conversations they may start per hour. */
export const SENDS_PER_MINUTE = 30;
export const NEW_CONVERSATIONS_PER_HOUR = 30;
export const MESSAGE_PAGE_SIZE = 50;
export const MESSAGE_PAGE_SIZE_MAX = 100;
/** Conversations per page of the list, and the most one page may ask for. */
export const CONVERSATION_PAGE_SIZE = 30;
export const CONVERSATION_PAGE_SIZE_MAX = 100;
export const CONVERSATION_SEARCH_MAX_LENGTH = 100;
/** SPEC §9: previews are cut to 50 characters. */
export const PREVIEW_LENGTH = 50;
/** An unread message is e-mailed about after this long, at most once per conversation per hour. */
export const UNREAD_MAIL_AFTER_MINUTES = 15;
export const UNREAD_MAIL_EVERY_MINUTES = 60;

/** SPEC §2 "Listing detail": the Message Seller dialog's four quick templates. */
export function messageTemplates(title: string): Array<{ label: string; text: string }> {
  return [
    { label: 'Still available?', text: `Hi, is "${title}" still available?` },
    { label: 'Make an offer', text: `Hi, I'm interested in "${title}". Would you consider an offer of £` },
    { label: 'More details', text: `Hi, could you tell me more about "${title}"? I'd like a few more details before deciding.` },
    { label: 'Arrange a viewing', text: `Hi, when would be a good time to come and see "${title}"?` },
  ];
}

export const BOOKING_STATUSES = ['pending', 'accepted', 'declined'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
export const BOOKING_DECISIONS = ['accepted', 'declined'] as const;
export type BookingDecision = (typeof BOOKING_DECISIONS)[number];

export const BOOKING_TEXTS = {
  datesRequired: 'Please choose the dates you want (from and to).',
  badDate: 'Dates must be real dates (YYYY-MM-DD).',
  toBeforeFrom: 'The end date must be on or after the start date.',
  inThePast: 'The dates must not be in the past.',
  outsideAvailability: (from: string | undefined, to: string | undefined) =>
    `The dates must be within the listing's availability${from ? ` from ${from}` : ''}${to ? ` to ${to}` : ''}.`,
  notRental: 'Only rental listings can be booked.',
  notLive: 'This rental is no longer available to book.',
  ownListing: 'You cannot book your own listing.',
  notOwner: 'Only the listing’s owner can accept or decline a booking request.',
  alreadyDecided: 'This booking request has already been answered.',
  notBooking: 'This message is not a booking request.',
  noteTooLong: 'The note must be at most 500 characters.',
  sentTitle: 'Booking Request Sent',
  datesTaken: (from: string, to: string) =>
    `Those dates are already booked (${bookingDay(from)} to ${bookingDay(to)}). Choose other dates.`,
} as const;
export const BOOKING_NOTE_MAX_LENGTH = 500;

/** A booking request's dates and state, carried by its message. */
export interface BookingDetails {
  from: string;
  to: string;
  status: BookingStatus;
  note: string | null;
  listing_id: string | null;
  decided_at: string | null;
  /** The price worked out when it was asked for, kept: an accepted booking keeps it (null for requests older than quotes). */
  quote?: BookingQuote | null;
}

/** A message as the chat shows it (SPEC §3 "Message"), also the payload of NEW_MESSAGE. */
export interface ChatMessage {
  id: string;
  conversation_id: string;
  sender_id: string | null;
  sender_name: string;
  content: string;
  kind: 'text' | 'booking-request';
  booking: BookingDetails | null;
  read: boolean;
  created_at: string;
  /** Show the safety notice beside it (contracts/message-safety.ts); only ever true for its recipient. */
  safety_notice: boolean;
}

/** "9+" above 9 (SPEC §9). */
export function badgeText(count: number): string {
  return count > 9 ? '9+' : String(count);
}

/** SPEC §4, §9: a message's preview (bell, notification, e-mail) is its first 50 characters on one line, then an ellipsis. */
export function previewOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > PREVIEW_LENGTH ? `${flat.slice(0, PREVIEW_LENGTH)}...` : flat;
}

/** A booking's day (YYYY-MM-DD) as the product shows dates: "3 Mar 2027". */
export function bookingDay(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(isoDate) || Number.isNaN(date.getTime())) return isoDate;
  return date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
}

/** A booking request's text, which previews, notifications and e-mails show: "Booking request: 3 Mar 2027 to 5 Mar 2027". */
export function bookingRequestText(from: string, to: string, note: string | null): string {
  return `Booking request: ${bookingDay(from)} to ${bookingDay(to)}${note ? `\n${note}` : ''}`;
}
