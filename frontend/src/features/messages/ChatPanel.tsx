import { type BookingQuote, quoteLines } from '@contracts/booking-quote';
import { useEffect, useRef, useState } from 'react';
import { MESSAGE_MAX_LENGTH, MESSAGING_TEXTS } from '@contracts/messaging';
import { formatRelativeTime } from '../../lib/format';
import type { ChatMessage, Conversation } from './messages-api';
import { bookingDay, initialOf } from './messages-logic';
import { useFitViewport } from './use-fit-viewport';
import { ReviewPanel } from '../reviews/ReviewPanel';
import '../reviews/reviews.css';

interface Props {
  conversation: Conversation;
  myId: string;
  messages: ChatMessage[] | null;
  hasOlder: boolean;
  onBack: () => void;
  onRefresh: () => void;
  onLoadOlder: () => void;
  onMarkRead: () => void;
  onToggleBlock: () => void;
  onDelete: () => void;
  onSend: (text: string) => Promise<boolean>;
  onDecide: (message: ChatMessage, decision: 'accepted' | 'declined') => void;
}

const STATUS_TEXT = { pending: 'Waiting for the owner’s answer', accepted: 'Accepted', declined: 'Declined' } as const;

/** The price worked out when the booking was asked for (kept: an accepted booking keeps it). */
function QuoteLines({ quote }: { quote: BookingQuote }) {
  const lines = quoteLines(quote);
  return (
    <div className="booking-card__quote" data-testid="booking-quote">
      <p>{lines.basis}</p>
      <p>{lines.vat}</p>
      <p className="booking-card__total">{lines.total}</p>
    </div>
  );
}

function BookingCard({
  message,
  mine,
  isOwner,
  onDecide,
}: {
  message: ChatMessage;
  mine: boolean;
  isOwner: boolean;
  onDecide: Props['onDecide'];
}) {
  const booking = message.booking;
  if (!booking) return null;
  return (
    <div className={`booking-card booking-card--${booking.status}`} data-testid="booking-card" data-status={booking.status}>
      <p className="booking-card__title">Booking request</p>
      <p className="booking-card__dates">
        {bookingDay(booking.from)} to {bookingDay(booking.to)}
      </p>
      {booking.quote && <QuoteLines quote={booking.quote} />}
      {booking.note && <p className="booking-card__note">{booking.note}</p>}
      <p className="booking-card__status" data-testid="booking-status">
        {STATUS_TEXT[booking.status]}
      </p>
      {booking.status === 'pending' && isOwner && !mine && (
        <div className="btn-row">
          <button type="button" className="btn btn--small" onClick={() => onDecide(message, 'accepted')}>
            Accept
          </button>
          <button type="button" className="btn btn--small btn--outline" onClick={() => onDecide(message, 'declined')}>
            Decline
          </button>
        </div>
      )}
    </div>
  );
}

/** SPEC §2 "Messages" chat: header with back, avatar, name, status, refresh and menu; messages; the input. */
export function ChatPanel(props: Props) {
  const { conversation, myId, messages } = props;
  const other = conversation.other_participant;
  // A conversation about a listing with someone still here has a row for "Leave a review" (or why not yet).
  const reviewable = Boolean(conversation.listing) && other.exists;
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const listRef = useRef<HTMLDivElement>(null);
  const panelRef = useRef<HTMLElement>(null);
  const lastId = messages?.at(-1)?.id;
  useFitViewport(panelRef, conversation.id);

  // Scrolls to the newest message when one arrives (not when older ones are loaded above).
  useEffect(() => {
    const list = listRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [lastId, conversation.id]);

  useEffect(() => {
    if (!menuOpen) return;
    const close = (event: KeyboardEvent) => event.key === 'Escape' && setMenuOpen(false);
    document.addEventListener('keydown', close);
    return () => document.removeEventListener('keydown', close);
  }, [menuOpen]);

  const send = async (event?: { preventDefault(): void }) => {
    event?.preventDefault();
    const content = text.trim();
    if (!content || busy) return;
    setBusy(true);
    if (await props.onSend(content)) setText('');
    setBusy(false);
  };

  const menuItem = (label: string, action: () => void, testId: string) => (
    <li>
      <button
        type="button"
        role="menuitem"
        className="chat-menu__item"
        data-testid={testId}
        onClick={() => {
          setMenuOpen(false);
          action();
        }}
      >
        {label}
      </button>
    </li>
  );

  return (
    <section
      className={`card chat${reviewable ? ' chat--reviewable' : ''}`}
      ref={panelRef}
      aria-label={`Conversation with ${other.name}`}
      data-testid="chat"
    >
      <header className="chat__header">
        <button type="button" className="btn btn--ghost btn--small chat__back" onClick={props.onBack} aria-label="Back to conversations">
          ←
        </button>
        <span className="avatar chat__avatar" aria-hidden="true">
          {initialOf(other.exists ? other.name : null)}
        </span>
        <div className="chat__who">
          <h2 className="chat__name" data-testid="chat-name">
            {other.name}
          </h2>
          <p className="chat__status">
            {messages && messages.length > 0 ? 'Active now' : 'Start a conversation'}
            {conversation.listing && (
              <>
                {' · '}
                <a href={`/listing/${conversation.listing.id}`}>{conversation.title}</a>
              </>
            )}
          </p>
        </div>
        <button type="button" className="btn btn--ghost btn--small" onClick={props.onRefresh} aria-label="Refresh messages" title="Refresh">
          ↻
        </button>
        <div className="chat-menu">
          <button
            type="button"
            className="btn btn--ghost btn--small"
            aria-haspopup="menu"
            aria-expanded={menuOpen}
            aria-label="Conversation options"
            data-testid="chat-menu"
            onClick={() => setMenuOpen(!menuOpen)}
          >
            ⋮
          </button>
          {menuOpen && (
            <ul className="chat-menu__panel" role="menu">
              {menuItem('Mark as Read', props.onMarkRead, 'menu-mark-read')}
              {other.exists && (
                <li>
                  <a role="menuitem" className="chat-menu__item" href={`/profile/${other.id}`}>
                    View Profile
                  </a>
                </li>
              )}
              {other.exists && menuItem(conversation.blocked ? 'Unblock User' : 'Block User', props.onToggleBlock, 'menu-block')}
              {menuItem('Delete Conversation', props.onDelete, 'menu-delete')}
            </ul>
          )}
        </div>
      </header>

      {reviewable && (
        <div className="chat__review">
          <ReviewPanel conversationId={conversation.id} />
        </div>
      )}

      <div className="chat__messages" ref={listRef} data-testid="chat-messages" aria-live="polite">
        {props.hasOlder && (
          <button type="button" className="btn btn--ghost btn--small chat__older" onClick={props.onLoadOlder}>
            Load older messages
          </button>
        )}
        {messages === null ? (
          <p className="chat__loading">Loading...</p>
        ) : messages.length === 0 ? (
          <div className="chat__empty">
            <p>No messages yet</p>
            <p>Start the conversation by sending a message below!</p>
          </div>
        ) : (
          <ol className="chat__list">
            {messages.map((message) => {
              const mine = message.sender_id === myId;
              return (
                <li
                  key={message.id}
                  className={`chat-message ${mine ? 'chat-message--mine' : 'chat-message--theirs'}`}
                  data-testid="chat-message"
                  data-mine={mine ? 'true' : 'false'}
                  data-read={message.read ? 'true' : 'false'}
                >
                  {message.kind === 'booking-request' ? (
                    <BookingCard
                      message={message}
                      mine={mine}
                      isOwner={Boolean(conversation.listing?.is_owner)}
                      onDecide={props.onDecide}
                    />
                  ) : (
                    <p className="chat-message__text">{message.content}</p>
                  )}
                  {message.safety_notice && !mine && (
                    <p className="chat-message__safety" role="note" data-testid="safety-notice">
                      <strong>Staying safe:</strong> {MESSAGING_TEXTS.safetyNotice}
                    </p>
                  )}
                  <p className="chat-message__meta">
                    <time dateTime={message.created_at}>{formatRelativeTime(message.created_at)}</time>
                    {mine && (
                      <span className="chat-message__tick" data-testid="read-tick">
                        {message.read ? ' · Read' : ' · Sent'}
                      </span>
                    )}
                  </p>
                </li>
              );
            })}
          </ol>
        )}
      </div>

      {conversation.blocked ? (
        <p className="chat__blocked">You blocked {other.name}. Unblock them from the menu to send messages.</p>
      ) : !other.exists ? (
        // A deleted account's conversation stays to be read, not answered.
        <p className="chat__blocked" data-testid="chat-closed">
          {MESSAGING_TEXTS.otherGone}
        </p>
      ) : (
        <form className="chat__form" onSubmit={send}>
          <label className="visually-hidden" htmlFor="chat-input">
            Message
          </label>
          <textarea
            id="chat-input"
            className="field__input chat__input"
            rows={2}
            placeholder="Type your message..."
            maxLength={MESSAGE_MAX_LENGTH}
            value={text}
            onInput={(event) => setText((event.target as HTMLTextAreaElement).value)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) void send(event);
            }}
          />
          <button type="submit" className="btn" disabled={!text.trim() || busy} data-testid="chat-send">
            {busy ? 'Sending...' : 'Send'}
          </button>
        </form>
      )}
    </section>
  );
}
