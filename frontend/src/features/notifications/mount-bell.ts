import { createElement } from 'react';
import { mountRoot } from '../../lib/mount-root';
import { $session, loadSession } from '../../stores/session';
import { startNotifications } from './notifications-store';
import NotificationsBell from './NotificationsBell';

/** Whether the session is a signed-in one, sharing the header's check (no second request). */
async function signedIn(): Promise<boolean> {
  const current = $session.get();
  if (current.status !== 'unknown') return current.status === 'signed-in';
  return (await loadSession()).status === 'signed-in';
}

/**
 * Loaded only when the fm_signed_in hint cookie is present (NotificationsSlot.astro). Once the
 * session is confirmed, replaces the visitor's sign-in link with the bell, loads the notifications
 * and opens the live channel; a stale hint leaves the link.
 */
export async function mountNotificationsBell(slot: HTMLElement): Promise<void> {
  if (!(await signedIn())) return;
  slot.replaceChildren();
  mountRoot(slot, createElement(NotificationsBell));
  startNotifications();
}
