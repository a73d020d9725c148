import { h, render } from 'preact';
import { startNotifications } from '../../stores/notifications';
import NotificationsBell from './NotificationsBell';

/**
 * Loaded only when the fm_signed_in hint cookie is present (NotificationsSlot.astro): replaces the
 * visitor's sign-in link with the bell, loads the notifications and opens the live channel.
 */
export function mountNotificationsBell(slot: HTMLElement): void {
  slot.replaceChildren();
  render(h(NotificationsBell, {}), slot);
  startNotifications();
}
