/**
 * How long Fieldmarket keeps what it holds (SPEC §9 "Data retention": inactive accounts 2 years,
 * backups 30 days); the retention job applies these and the privacy page states them.
 */
export const RETENTION = {
  /** An account nobody has signed in to (or used a session of) for this long is deleted. */
  inactiveAccountYears: 2,
  /** Its owner is warned by e-mail this long before, once; signing in again keeps the account. */
  inactivityWarningDays: 30,
  /** Contact messages and feedback are deleted this long after they were sent. */
  contactMessageYears: 2,
  feedbackYears: 2,
  /** A newsletter sign-up never confirmed, or unsubscribed, is deleted after this long. */
  newsletterUnconfirmedDays: 30,
  newsletterUnsubscribedDays: 30,
  /**
   * A listing staff hid (for itself, not with a suspended seller) is deleted with its photos this long
   * after it was hidden, unless its owner's appeal is still waiting (issue 23 §5).
   */
  hiddenListingDays: 180,
  /** Backups are deleted within this long (an operator's duty; see docs/retention.md). */
  backupDays: 30,
} as const;
