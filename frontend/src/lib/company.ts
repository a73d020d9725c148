import { RETENTION as KEPT } from '@contracts/retention';
/** Facts about Fieldmarket that several pages state (SPEC §1, §9); one place, so they never disagree. */
export const SUPPORT_EMAIL = 'support@fieldmarket.co.uk';
export const COMPANY_LOCATION = 'London, United Kingdom';
export const FOUNDED_YEAR = 2023;

/** SPEC §9 "Stated response times", in hours. */
export const RESPONSE_HOURS = {
  supportEmail: 24,
  listingReview: 24,
  urgentFeedback: 24,
  feedback: 48,
} as const;

/** SPEC §9 "Data retention". */
export const RETENTION = {
  /** The periods the retention job applies (backend/src/contracts/retention.ts), stated on the legal pages. */
  inactiveAccountYears: KEPT.inactiveAccountYears,
  inactivityWarningDays: KEPT.inactivityWarningDays,
  /** Contact messages and feedback are purged this long after they arrive. */
  messagesToUsYears: Math.max(KEPT.contactMessageYears, KEPT.feedbackYears),
  backupDays: KEPT.backupDays,
  /** A listing staff hid is deleted this long after it was hidden (unless its appeal waits). */
  hiddenListingDays: KEPT.hiddenListingDays,
  newsletterDays: Math.max(KEPT.newsletterUnconfirmedDays, KEPT.newsletterUnsubscribedDays),
  minimumAge: 13,
  governingLaw: 'England and Wales',
} as const;

/** When the legal pages last changed; shown on them. */
export const LEGAL_UPDATED = new Date('2026-11-26');
