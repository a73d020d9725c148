/**
 * Saved searches and their alerts: facts the API and the browser share.
 */

/** How often a saved search tells its owner about new matches. */
export const ALERT_FREQUENCIES = ['instant', 'daily', 'weekly', 'off'] as const;
export type AlertFrequency = (typeof ALERT_FREQUENCIES)[number];

/** Saved searches one user may keep. */
export const SAVED_SEARCH_CAP = 50;
export const SAVED_SEARCH_NAME_MAX = 120;
/** An instant search mails at most once in this many minutes, however many listings arrive. */
export const INSTANT_MAIL_EVERY_MINUTES = 15;
/** A digest lists at most this many listings per search. */
export const DIGEST_LISTINGS_PER_SEARCH = 20;
/** Digests go at this hour, UK time. */
export const DIGEST_HOUR = 7;
export const DIGEST_TIME_ZONE = 'Europe/London';

export const SAVED_SEARCH_TEXTS = {
  capReached: `You can keep up to ${SAVED_SEARCH_CAP} saved searches. Delete one you no longer need to save this search.`,
  notFound: 'Saved search not found',
  unsubscribed: 'You will no longer get e-mails about this saved search.',
  badToken: 'This unsubscribe link is not valid. Manage your saved searches from your profile.',
  outdatedQuery:
    'This search was saved by an earlier version of Fieldmarket, so no name can be suggested for it: type a name, or open it and save it again.',
} as const;

/** A saved search's name, as the form and the API check it. */
export const SAVED_SEARCH_NAME_RULE = { label: 'Name', maxLength: SAVED_SEARCH_NAME_MAX, singleLine: true, optional: true } as const;
