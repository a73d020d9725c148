import { useEffect, useRef } from 'react';
import { formatRelativeTime } from '../../lib/format';
import type { Conversation } from './messages-api';
import { badgeText, filterConversations, initialOf, previewText } from './messages-logic';

interface Props {
  conversations: Conversation[] | null;
  myId: string;
  openId: string | null;
  query: string;
  onQuery: (query: string) => void;
  onOpen: (conversation: Conversation) => void;
  /** More conversations than shown: the next page loads when the list is scrolled to its end, or on "Load more". */
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
}

/** Calls `onSeen` whenever the element scrolls into its scrolling parent's view. */
function useSeen(onSeen: () => void, active: boolean) {
  const ref = useRef<HTMLButtonElement>(null);
  const seen = useRef(onSeen);
  seen.current = onSeen;
  useEffect(() => {
    const element = ref.current;
    if (!active || !element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && seen.current(), {
      root: element.closest('.conversations__list'),
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [active]);
  return ref;
}

/** SPEC §2 "Messages": title, search, rows (avatar, name, time, preview, unread badge), empty states, skeletons. */
export function ConversationList({ conversations, myId, openId, query, onQuery, onOpen, hasMore, loadingMore, onLoadMore }: Props) {
  const shown = conversations ? filterConversations(conversations, query) : null;
  const more = useSeen(onLoadMore, hasMore && !loadingMore);
  return (
    <section className="card conversations" aria-labelledby="conversations-title">
      <h1 id="conversations-title" className="conversations__title">
        Messages
      </h1>
      <label className="visually-hidden" htmlFor="conversation-search">
        Search conversations
      </label>
      <input
        id="conversation-search"
        className="field__input conversations__search"
        type="search"
        placeholder="Search conversations..."
        value={query}
        onInput={(event) => onQuery((event.target as HTMLInputElement).value)}
      />
      <div className="conversations__list" data-testid="conversation-list">
        {shown === null ? (
          <ul className="conversations__rows" aria-busy="true" aria-label="Loading conversations">
            {[0, 1, 2, 3, 4].map((n) => (
              <li key={n} className="conversation-row conversation-row--skeleton" data-testid="conversation-skeleton">
                <span className="skeleton conversation-row__avatar-skeleton" />
                <span className="conversation-row__skeleton-lines">
                  <span className="skeleton" />
                  <span className="skeleton" />
                </span>
              </li>
            ))}
          </ul>
        ) : shown.length === 0 && !hasMore ? (
          query.trim() ? (
            <p className="conversations__empty">No conversations found</p>
          ) : (
            <div className="conversations__empty">
              <p>No conversations yet</p>
              <p className="conversations__hint">Start a conversation by messaging a seller</p>
            </div>
          )
        ) : (
          <ul className="conversations__rows">
            {shown.map((conversation) => {
              const other = conversation.other_participant;
              const at = conversation.last_message?.created_at ?? conversation.updated_at;
              return (
                <li key={conversation.id}>
                  <button
                    type="button"
                    className="conversation-row"
                    aria-current={conversation.id === openId ? 'true' : undefined}
                    data-testid="conversation-row"
                    data-conversation={conversation.id}
                    onClick={() => onOpen(conversation)}
                  >
                    <span className="avatar conversation-row__avatar" aria-hidden="true">
                      {initialOf(other.exists ? other.name : null)}
                      {other.avatar_url && (
                        <img
                          src={other.avatar_url}
                          alt=""
                          width={40}
                          height={40}
                          onError={(e) => (e.currentTarget as HTMLImageElement).remove()}
                        />
                      )}
                    </span>
                    <span className="conversation-row__body">
                      <span className="conversation-row__top">
                        <span className="conversation-row__name">{other.name}</span>
                        <time className="conversation-row__time" dateTime={at}>
                          {formatRelativeTime(at)}
                        </time>
                      </span>
                      <span className="conversation-row__title">{conversation.title}</span>
                      <span className="conversation-row__bottom">
                        <span className="conversation-row__preview">{previewText(conversation, myId)}</span>
                        {conversation.unread_count > 0 && (
                          <span
                            className="unread-badge"
                            data-testid="conversation-unread"
                            aria-label={`${conversation.unread_count} unread`}
                          >
                            {badgeText(conversation.unread_count)}
                          </span>
                        )}
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {shown !== null && hasMore && (
          <button
            type="button"
            ref={more}
            className="btn btn--ghost btn--small conversations__more"
            data-testid="conversations-more"
            disabled={loadingMore}
            onClick={onLoadMore}
          >
            {loadingMore ? 'Loading...' : 'Load more'}
          </button>
        )}
      </div>
    </section>
  );
}
