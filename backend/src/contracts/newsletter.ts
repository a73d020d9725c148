import type { TextRule } from './text-rules.js';

/** The Subscribe boxes (footer, blog): an e-mail address (SPEC §5 names no rule; these are the account's). */
export const NEWSLETTER_RULES = {
  email: { label: 'Email', maxLength: 254, email: true, singleLine: true, lowercase: true },
} as const satisfies Record<string, TextRule>;

/** How long a confirmation link works. */
export const NEWSLETTER_CONFIRM_HOURS = 48;

export const NEWSLETTER_TEXTS = {
  /** The one answer to every accepted sign-up, known address or not (nothing to learn about who subscribes). */
  checkInbox: 'Thanks! Please check your inbox and confirm your subscription with the link we sent.',
  rateLimited: 'Too many sign-ups from your connection. Please wait a few minutes and try again.',
  confirmed: 'Your subscription is confirmed. The Fieldmarket newsletter will arrive in your inbox.',
  confirmLinkInvalid: 'This confirmation link is invalid, has already been used or has expired. Subscribe again to get a new one.',
  unsubscribed: 'You have been unsubscribed and will receive no more newsletters from Fieldmarket.',
  unsubscribeLinkInvalid:
    'This unsubscribe link is not valid. Use the link in the latest newsletter, or contact us and we will remove you.',
  failed: 'Failed to subscribe. Please try again.',
} as const;
