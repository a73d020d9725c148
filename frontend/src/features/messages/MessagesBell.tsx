import { useCallback, useEffect, useRef, useState } from 'react';
import { formatRelativeTime } from '../../lib/format';
import { onLiveEvent } from '../../stores/live-events';
import { useDismissible } from '../../lib/use-dismissible';
import { loadSession } from '../../stores/session';
import { listConversations, markRead, type Conversation } from './messages-api';
import { badgeText, previewOf, totalUnread } from './messages-logic';

/**
 * The header's messages bell (SPEC §2 "Header"), for signed-in users only: the unread count (9+),
 * and a dropdown of conversations with unread messages (sender, preview, time), each dismissable
 * (which marks that conversation read on the server), Mark all read and View all messages.
 */
export function MessagesBell() {
  const [myId, setMyId] = useState<string | null>(null);
  const [unread, setUnread] = useState<Conversation[]>([]);
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const close = useCallback(() => setOpen(false), []);

  const load = useCallback(async () => {
    const result = await listConversations({ only: 'unread' });
    if (result.ok) setUnread(result.data.conversations);
  }, []);

  useEffect(() => {
    void loadSession().then((state) => {
      if (state.status !== 'signed-in') return;
      setMyId(state.user.id);
      void load();
    });
  }, [load]);

  useEffect(() => {
    if (!myId) return;
    const offNew = onLiveEvent('NEW_MESSAGE', ({ data }) => {
      if (data.message.sender_id !== myId) void load();
    });
    const offRead = onLiveEvent('MESSAGES_READ', ({ data }) => {
      if (data.reader_id === myId) setUnread((list) => list.filter((c) => c.id !== data.conversation_id));
    });
    return () => {
      offNew();
      offRead();
    };
  }, [myId, load]);

  useDismissible(root, open, close);

  if (!myId) return null;
  const total = totalUnread(unread);

  const dismiss = async (id: string) => {
    setUnread((list) => list.filter((c) => c.id !== id));
    await markRead(id, myId);
  };
  const markAll = async () => {
    const ids = unread.map((c) => c.id);
    setUnread([]);
    await Promise.all(ids.map((id) => markRead(id, myId)));
  };

  return (
    <div className="messages-bell" ref={root}>
      <button
        type="button"
        className="btn btn--ghost btn--small messages-bell__toggle"
        aria-expanded={open}
        aria-controls="messages-bell-panel"
        aria-label={total > 0 ? `Messages, ${total} unread` : 'Messages'}
        data-testid="messages-bell"
        onClick={() => setOpen(!open)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          <path d="M4 5h16v11H8l-4 4z" fill="none" stroke="currentColor" stroke-width="2" stroke-linejoin="round" />
        </svg>
        {total > 0 && (
          <span className="unread-badge messages-bell__badge" data-testid="messages-bell-badge">
            {badgeText(total)}
          </span>
        )}
      </button>
      {open && (
        <div className="messages-bell__panel card" id="messages-bell-panel" role="region" aria-label="Messages">
          <div className="messages-bell__head">
            <h2 className="messages-bell__title">Messages</h2>
            {unread.length > 0 && (
              <button type="button" className="btn btn--ghost btn--small" onClick={() => void markAll()}>
                Mark all read
              </button>
            )}
          </div>
          {unread.length === 0 ? (
            <p className="messages-bell__empty">No new messages</p>
          ) : (
            <ul className="messages-bell__list">
              {unread.map((c) => (
                <li key={c.id} className="messages-bell__item" data-testid="messages-bell-item">
                  <a className="messages-bell__link" href={`/messages?conversation=${c.id}`}>
                    <span className="messages-bell__sender">{c.other_participant.name}</span>
                    <span className="messages-bell__preview">{previewOf(c.last_message?.content ?? '')}</span>
                    <time className="messages-bell__time" dateTime={c.last_message?.created_at ?? c.updated_at}>
                      {formatRelativeTime(c.last_message?.created_at ?? c.updated_at)}
                    </time>
                  </a>
                  <button
                    type="button"
                    className="btn btn--ghost btn--small messages-bell__dismiss"
                    aria-label={`Dismiss messages from ${c.other_participant.name}`}
                    onClick={() => void dismiss(c.id)}
                  >
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
          <a className="messages-bell__all" href="/messages">
            View all messages
          </a>
        </div>
      )}
    </div>
  );
}
