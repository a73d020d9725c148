import type { TextRule } from './text-rules.js';

/** The contact form (SPEC §5 "Contact", plus maximum lengths and one-line name and subject). */
export const CONTACT_RULES = {
  name: { label: 'Name', maxLength: 100, singleLine: true },
  email: { label: 'Email', maxLength: 254, email: true, singleLine: true },
  subject: { label: 'Subject', maxLength: 200, singleLine: true },
  message: { label: 'Message', minLength: 10, maxLength: 5000 },
} as const satisfies Record<string, TextRule>;

export type ContactField = keyof typeof CONTACT_RULES;

export const CONTACT_RATE_LIMIT_MESSAGE = 'Too many messages from your connection. Please wait a few minutes and try again.';
