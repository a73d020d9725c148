import { atom } from 'nanostores';
import {
  deleteNotification,
  fetchNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  type NotificationItem,
} from './notifications-api';
import { addNotification, isLocal, isNew } from './notification-list';
import { onLiveEvent } from '../../stores/live-events';
import { showToast } from '../../stores/toasts';

/** The bell's newest 10 notifications, newest first. */
export const $notifications = atom<NotificationItem[]>([]);
/** Unread notifications in all (the badge). */
export const $unreadNotifications = atom(0);
export const $notificationsLoaded = atom(false);

let started = false;

/** Loads the list once and keeps it current with live events (each carries the stored notification). */
export function startNotifications(): void {
  if (started) return;
  started = true;
  void reloadNotifications();
  const add = (event: { data: { notification?: NotificationItem } }) => {
    if (event.data.notification) receiveNotification(event.data.notification);
  };
  onLiveEvent('NEW_LISTING', add);
  onLiveEvent('LISTING_UPDATED', add);
  onLiveEvent('MESSAGE_NOTIFICATION', add);
  onLiveEvent('BOOKING_DECIDED', add);
  onLiveEvent('PROFILE_UPDATED', add);
  onLiveEvent('REVIEW_RECEIVED', add);
}

export async function reloadNotifications(): Promise<void> {
  const result = await fetchNotifications();
  if (!result.ok) return;
  const local = $notifications.get().filter(isLocal);
  $notifications.set(local.reduce(addNotification, result.data.notifications));
  $unreadNotifications.set(result.data.unread_count + local.filter((n) => !n.read).length);
  $notificationsLoaded.set(true);
}

export function receiveNotification(item: NotificationItem): void {
  const list = $notifications.get();
  if (!isNew(list, item)) return;
  $notifications.set(addNotification(list, item));
  if (!item.read) $unreadNotifications.set($unreadNotifications.get() + 1);
}

export async function markRead(id: string): Promise<void> {
  const item = $notifications.get().find((n) => n.id === id);
  if (!item || item.read) return;
  setRead((n) => n.id === id);
  $unreadNotifications.set(Math.max(0, $unreadNotifications.get() - 1));
  if (isLocal(item)) return;
  const result = await markNotificationRead(id);
  if (!result.ok) void reloadNotifications();
}

export async function markAllRead(): Promise<void> {
  if ($unreadNotifications.get() === 0 && $notifications.get().every((n) => n.read)) return;
  setRead(() => true);
  $unreadNotifications.set(0);
  const result = await markAllNotificationsRead();
  if (!result.ok) void reloadNotifications();
}

export async function removeNotification(id: string): Promise<void> {
  const item = $notifications.get().find((n) => n.id === id);
  if (!item) return;
  $notifications.set($notifications.get().filter((n) => n.id !== id));
  if (isLocal(item)) {
    if (!item.read) $unreadNotifications.set(Math.max(0, $unreadNotifications.get() - 1));
    return;
  }
  const result = await deleteNotification(id);
  if (result.ok) {
    $unreadNotifications.set(result.data.unread_count + $notifications.get().filter((n) => isLocal(n) && !n.read).length);
    // The list shows the newest 10: fetch the one that moves up.
    void reloadNotifications();
  } else {
    showToast({ title: 'Error', description: result.error, variant: 'destructive' });
    void reloadNotifications();
  }
}

function setRead(which: (n: NotificationItem) => boolean): void {
  $notifications.set($notifications.get().map((n) => (which(n) ? { ...n, read: true } : n)));
}
