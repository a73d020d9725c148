import { NOTIFICATION_LIST_CAP } from '@contracts/notifications';
import type { NotificationItem } from './notifications-api';

/** The bell's list after `item` arrives: newest first, once per id, at most 10 (SPEC §4, §9). */
export function addNotification(list: readonly NotificationItem[], item: NotificationItem): NotificationItem[] {
  return [item, ...list.filter((existing) => existing.id !== item.id)]
    .sort((a, b) => b.created_at.localeCompare(a.created_at))
    .slice(0, NOTIFICATION_LIST_CAP);
}

/** Whether `item` is new to the list (a replayed event is not counted twice). */
export function isNew(list: readonly NotificationItem[], item: NotificationItem): boolean {
  return !list.some((existing) => existing.id === item.id);
}

/** The Test Badge's notification: kept in this page only (developer pages). */
export function testNotification(now = new Date()): NotificationItem {
  return {
    id: `local-test-${now.getTime()}`,
    kind: 'PROFILE_UPDATED',
    type: 'info',
    title: 'Test Notification',
    message: 'This is a test notification to check the badge.',
    action_url: null,
    read: false,
    created_at: now.toISOString(),
  };
}

export const isLocal = (item: NotificationItem): boolean => item.id.startsWith('local-');
