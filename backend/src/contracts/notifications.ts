/**
 * Notifications (SPEC §4 "Notifications"): facts the API and the browser share.
 */

/** What a notification is about. */
export const NOTIFICATION_KINDS = [
  'NEW_MESSAGE',
  'NEW_LISTING',
  'LISTING_UPDATED',
  'PROFILE_UPDATED',
  'BOOKING',
  'REVIEW',
  'STORY',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

/** The spec's notification type, which sets its colour. */
export const NOTIFICATION_TYPES = ['info', 'success', 'warning', 'error'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The spec's titles (SPEC §4), and ours for a booking decision, a review and a success story decision. */
export const NOTIFICATION_TITLES = {
  NEW_LISTING: 'New Listing Available',
  NEW_MESSAGE: 'New Message',
  LISTING_UPDATED: 'Listing Updated',
  PROFILE_UPDATED: 'Profile Updated',
  BOOKING: 'Booking Request',
  REVIEW: 'New Review',
  STORY: 'Success Story',
} as const satisfies Record<NotificationKind, string>;

/** The bell shows the newest 10 (SPEC §9 "Notification list cap"). */
export const NOTIFICATION_LIST_CAP = 10;
/** Notifications are kept this long, then purged. */
export const NOTIFICATION_RETENTION_DAYS = 90;

/** A stored notification as the API and the socket events give it. */
export interface NotificationView {
  id: string;
  kind: NotificationKind;
  type: NotificationType;
  title: string;
  message: string;
  /** Where View takes the user (a path on the site), or null. */
  action_url: string | null;
  read: boolean;
  created_at: string;
}

/** The categories a signed-in user can follow (a new listing there is notified). */
export const FOLLOWABLE_CATEGORIES = ['land', 'equipment', 'livestock', 'seeds-plants', 'services', 'rentals'] as const;
export type FollowableCategory = (typeof FOLLOWABLE_CATEGORIES)[number];

/** Live-channel facts the browser's fallback follows (SPEC §4 "Real-time connection", §9). */
export const LIVE_CHANNEL = {
  /** REST polling interval while the socket is not connected. */
  pollingIntervalMs: 5_000,
  /**
   * A page polls as soon as the socket's first attempt fails, or when it has not connected this long
   * after opening (a connection that neither opens nor fails); the socket keeps retrying behind.
   */
  pollAfterMs: 5_000,
  /** Socket retries wait 2, 4, 8... seconds, at most this long, each varied by half either way. */
  reconnectDelayMaxMs: 30_000,
  /** socket.io heartbeat. */
  pingIntervalMs: 25_000,
  pingTimeoutMs: 10_000,
} as const;
