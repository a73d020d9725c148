import { useStore } from '@nanostores/react';
import { useCallback, useRef, useState } from 'react';
import { badgeText } from '@contracts/messaging';
import { formatRelativeTime } from '../../lib/format';
import { useDismissible } from '../../lib/use-dismissible';
import { $realtimeStatus, REALTIME_STATUS_LABELS } from '../../stores/realtime-status';
import { $notifications, $unreadNotifications, markAllRead, markRead, removeNotification } from './notifications-store';
import type { NotificationItem } from './notifications-api';
import './notifications.css';

const BellIcon = () => (
  <svg viewBox="0 0 24 24" width="22" height="22" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
    <path d="M18 8a6 6 0 0 0-12 0c0 7-3 9-3 9h18s-3-2-3-9" />
    <path d="M13.73 21a2 2 0 0 1-3.46 0" />
  </svg>
);

/** One notification: title, message, time, and Mark read, View, Delete (SPEC §2 "Header"). */
function Item({ item, close }: { item: NotificationItem; close: () => void }) {
  const view = () => {
    void markRead(item.id);
    close();
    if (item.action_url) window.location.assign(item.action_url);
  };
  return (
    <li className={`notification notification--${item.type}${item.read ? '' : ' notification--unread'}`} data-testid="notification">
      {/* Opening an item (a click on its text) marks it read, as its own Mark read does. */}
      <button type="button" className="notification__open" data-testid="notification-open" onClick={() => void markRead(item.id)}>
        <span className="notification__title">{item.title}</span>
        <span className="notification__message">{item.message}</span>
      </button>
      <p className="notification__time">
        <time dateTime={item.created_at}>{formatRelativeTime(item.created_at)}</time>
      </p>
      <div className="notification__actions">
        {!item.read && (
          <button type="button" className="notifications-link" onClick={() => void markRead(item.id)}>
            Mark read
          </button>
        )}
        {item.action_url && (
          <button type="button" className="notifications-link" onClick={view}>
            View
          </button>
        )}
        <button
          type="button"
          className="notifications-link notification__delete"
          aria-label={`Delete notification: ${item.title}`}
          onClick={() => void removeNotification(item.id)}
        >
          Delete
        </button>
      </div>
    </li>
  );
}

/**
 * The header's notifications bell for a signed-in user: the badge (9+ above nine), the live-channel
 * dot, and the dropdown of the newest 10. Each item is read once opened or marked read on its own;
 * opening the bell marks nothing (docs/spec-differences.md), Mark all read marks them all.
 */
export default function NotificationsBell() {
  const notifications = useStore($notifications);
  const unread = useStore($unreadNotifications);
  const status = useStore($realtimeStatus);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);

  useDismissible(root, open, close);

  return (
    <div className="notifications-bell" ref={root}>
      <button
        type="button"
        className="notifications-bell__toggle"
        aria-expanded={open}
        aria-controls="notifications-panel"
        aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}
        data-testid="notifications-bell"
        onClick={() => setOpen(!open)}
      >
        <BellIcon />
        {unread > 0 && (
          <span className="notifications-bell__badge" data-testid="notifications-badge" aria-hidden="true">
            {badgeText(unread)}
          </span>
        )}
        <span
          className={`live-dot live-dot--${status}`}
          role="img"
          aria-label={REALTIME_STATUS_LABELS[status]}
          title={REALTIME_STATUS_LABELS[status]}
          data-testid="live-dot"
          data-status={status}
        />
      </button>
      {open && (
        <div id="notifications-panel" className="notifications-bell__panel" role="region" aria-label="Notifications">
          <div className="notifications-bell__head">
            <h2 className="notifications-bell__title">Notifications</h2>
            <button type="button" className="notifications-link" onClick={() => void markAllRead()}>
              Mark all read
            </button>
          </div>
          {notifications.length === 0 ? (
            <p className="notifications-bell__empty">No notifications yet</p>
          ) : (
            <ul className="notifications-bell__list">
              {notifications.map((item) => (
                <Item key={item.id} item={item} close={() => setOpen(false)} />
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
}
