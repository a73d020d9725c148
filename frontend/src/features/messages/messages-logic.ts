import { MESSAGING_TEXTS } from '@contracts/messaging';
import type { ChatMessage, Conversation } from './messages-api';

export { badgeText, bookingDay, previewOf } from '@contracts/messaging';

/**
 * SPEC §2 "Messages": the search box matches the other participant's name, the listing's title or
 * the last message, ignoring case. The server searches every conversation; this narrows the rows
 * already shown at once, while its answer is on the way.
 */
export function filterConversations(conversations: readonly Conversation[], query: string): Conversation[] {
  const wanted = query.trim().toLowerCase();
  if (!wanted) return [...conversations];
  return conversations.filter((c) =>
    [c.other_participant.name, c.title, c.last_message?.content ?? ''].some((text) => text.toLowerCase().includes(wanted)),
  );
}

/** Appends a further page, keeping each conversation once (one that moved up meanwhile stays where it is). */
export function appendPage(conversations: readonly Conversation[], page: readonly Conversation[]): Conversation[] {
  const shown = new Set(conversations.map((c) => c.id));
  return [...conversations, ...page.filter((c) => !shown.has(c.id))];
}

/** The row's preview: 'You: ' before the user's own message, 'Start a conversation' when there is none. */
export function previewText(conversation: Conversation, myId: string): string {
  const last = conversation.last_message;
  if (!last) return 'Start a conversation';
  return last.sender_id === myId ? `You: ${last.content}` : last.content;
}

/** An avatar's letter: the name's first, '?' when there is none or the account is gone. */
export function initialOf(name: string | undefined | null): string {
  if (!name || name === MESSAGING_TEXTS.unknownUser || name === MESSAGING_TEXTS.deletedUser) return '?';
  return name.trim().charAt(0).toUpperCase() || '?';
}

/** Adds a message or replaces the one with its id, keeping the list oldest to newest (and a read tick once shown). */
export function mergeMessage(messages: readonly ChatMessage[], message: ChatMessage): ChatMessage[] {
  const others = messages.filter((m) => m.id !== message.id);
  const [merged] = keepReadTicks(messages, [message]);
  return [...others, merged as ChatMessage].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/**
 * Fetched messages with the read ticks already shown kept: a message once read stays read, so a
 * copy fetched just before the other party read it (the reload a second after a send) cannot
 * take the tick back.
 */
export function keepReadTicks(shown: readonly ChatMessage[] | null, fetched: readonly ChatMessage[]): ChatMessage[] {
  const read = new Set((shown ?? []).filter((m) => m.read).map((m) => m.id));
  return fetched.map((m) => (!m.read && read.has(m.id) ? { ...m, read: true } : m));
}

/** Merges an older page in front of what is shown (a message in both is kept once). */
export function prependPage(messages: readonly ChatMessage[], older: readonly ChatMessage[]): ChatMessage[] {
  return older.reduce((list, message) => mergeMessage(list, message), [...messages]);
}

/** The user's own messages whose ids the other party read become read. */
export function markMessagesRead(messages: readonly ChatMessage[], ids: readonly string[]): ChatMessage[] {
  const read = new Set(ids);
  return messages.map((m) => (read.has(m.id) ? { ...m, read: true } : m));
}

/**
 * A live message moves its conversation to the top with the new preview; it counts as unread
 * unless the user sent it or has that conversation open. Undefined when the conversation is not in
 * the list (a new one, or one the user had deleted): the caller reloads the list.
 */
export function applyNewMessage(
  conversations: readonly Conversation[],
  message: ChatMessage,
  myId: string,
  openId: string | null,
): Conversation[] | undefined {
  const found = conversations.find((c) => c.id === message.conversation_id);
  if (!found) return undefined;
  const counts = message.sender_id !== myId && openId !== message.conversation_id;
  const updated: Conversation = {
    ...found,
    last_message: { content: message.content, sender_id: message.sender_id, created_at: message.created_at },
    unread_count: found.unread_count + (counts ? 1 : 0),
    updated_at: message.created_at,
  };
  return [updated, ...conversations.filter((c) => c.id !== found.id)];
}

/** The conversation with its unread count cleared. */
export function clearUnread(conversations: readonly Conversation[], id: string): Conversation[] {
  return conversations.map((c) => (c.id === id ? { ...c, unread_count: 0 } : c));
}

export function totalUnread(conversations: readonly Conversation[]): number {
  return conversations.reduce((sum, c) => sum + c.unread_count, 0);
}

/** Today in the UK as YYYY-MM-DD (the earliest day a booking may start). */
export function todayIso(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** The first and last day a rental can be booked: from today or its availability, whichever is later. */
export function bookableRange(
  availableFrom: string | undefined,
  availableTo: string | undefined,
  today: string,
): { min: string; max?: string } {
  const min = availableFrom && availableFrom > today ? availableFrom : today;
  return availableTo ? { min, max: availableTo } : { min };
}
