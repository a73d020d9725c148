import type { TextRule } from './text-rules.js';

/** Why someone reports a listing or a profile: the form's choices, the API's allowed values. */
export const REPORT_REASONS = {
  'prohibited-item': 'Prohibited item or illegal sale',
  'animal-welfare': 'Animal welfare or livestock movement concern',
  scam: 'Scam or fraud',
  misleading: 'Misleading or inaccurate',
  offensive: 'Offensive or abusive',
  spam: 'Spam or duplicate',
  other: 'Something else',
} as const;
export type ReportReason = keyof typeof REPORT_REASONS;
export const REPORT_REASON_KEYS = Object.keys(REPORT_REASONS) as ReportReason[];

export const REPORT_TARGETS = ['listing', 'user', 'review'] as const;
export type ReportTarget = (typeof REPORT_TARGETS)[number];

export const REPORT_RULES = {
  details: { label: 'Details', maxLength: 1000, optional: true },
} as const satisfies Record<string, TextRule>;

/** Reports one person may send in an hour. */
export const REPORTS_PER_HOUR = 10;

/** What staff write when they act (the seller reads the reason for a hidden listing) and when they reply. */
export const STAFF_RULES = {
  reason: { label: 'Reason', minLength: 5, maxLength: 1000 },
  reply: { label: 'Reply', minLength: 2, maxLength: 5000 },
} as const satisfies Record<string, TextRule>;

/** The kinds of item in the staff inbox; each is one source (a module) behind the inbox port. */
export const INBOX_KINDS = ['contact', 'report', 'feedback', 'story', 'business', 'appeal'] as const;
export type InboxKind = (typeof INBOX_KINDS)[number];
export const INBOX_STATUSES = ['unread', 'read', 'open', 'archived', 'all'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

/**
 * How soon staff answer (SPEC §9 "Stated response times"): support e-mail 24 h, listing review
 * 24 h, feedback 48 h and urgent feedback (bug reports) 24 h.
 */
export const RESPONSE_HOURS = { contact: 24, report: 24, feedback: 48, urgentFeedback: 24, story: 72, business: 72, appeal: 72 } as const;

export const STAFF_TEXTS = {
  staffOnly: 'This page is for Fieldmarket staff only.',
  twoFactorNeeded: 'Staff pages need two-factor sign-in on your account. Turn it on in your profile (/profile, Security), then try again.',
  secondFactorNeeded:
    'Staff pages need a sign-in with your two-factor code. Sign out, then sign in again with your password and the code from your authenticator app.',
  suspended:
    'This account has been suspended by the Fieldmarket team. If you think this is a mistake, write to us through the contact page.',
  reportReceived: 'Thank you. Our team reviews reports within 24 hours.',
  alreadyReported: 'You have already reported this; our team will look at it within 24 hours.',
  cannotReportOwn: 'You cannot report your own listing, profile or review.',
  reportNotFound: 'There is nothing to report there: the listing, profile or review does not exist or is no longer shown.',
  tooManyReports: 'You have sent a lot of reports in the last hour. Please wait a while before sending more.',
  itemNotFound: 'That inbox item does not exist (it may have been deleted).',
  notStaffMember: 'Items can only be assigned to a member of staff.',
  notDecided: 'Items of this kind are not approved or declined.',
  declineNeedsReason: 'Write the reason first: the author is told it.',
} as const;
