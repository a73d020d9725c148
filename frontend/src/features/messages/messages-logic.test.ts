import { describe, expect, it } from '@jest/globals';
import type { ChatMessage, Conversation } from './messages-api';
import { bookingRequestText } from '@contracts/messaging';
import {
  appendPage,
  applyNewMessage,
  badgeText,
  bookableRange,
  bookingDay,
  clearUnread,
  filterConversations,
  initialOf,
  keepReadTicks,
  markMessagesRead,
  mergeMessage,
  prependPage,
  previewOf,
  previewText,
  todayIso,
  totalUnread,
} from './messages-logic';

const ME = 'me';
const conversation = (id: string, name: string, last: string | null, sender = 'other', unread = 0): Conversation => ({
  id,
  title: `Listing ${id}`,
  listing: null,
  other_participant: { id: `u-${id}`, name, avatar_url: null, exists: name !== 'Unknown User' },
  last_message: last === null ? null : { content: last, sender_id: sender, created_at: '2026-11-20T10:00:00.000Z' },
  unread_count: unread,
  blocked: false,
  updated_at: '2026-11-20T10:00:00.000Z',
});
const message = (id: string, at: string, sender = 'other', conversationId = 'a'): ChatMessage => ({
  id,
  conversation_id: conversationId,
  sender_id: sender,
  sender_name: 'Tom',
  content: `text ${id}`,
  kind: 'text',
  booking: null,
  read: false,
  created_at: at,
  safety_notice: false,
});

describe('the conversation list', () => {
  const list = [conversation('a', 'Tom Baker', 'Is the plough sold?'), conversation('b', 'Ann Hill', 'See you Friday', ME)];

  it('filters by name or last message, ignoring case', () => {
    expect(filterConversations(list, 'ann').map((c) => c.id)).toEqual(['b']);
    expect(filterConversations(list, 'PLOUGH').map((c) => c.id)).toEqual(['a']);
    expect(filterConversations(list, '  ').map((c) => c.id)).toEqual(['a', 'b']);
    expect(filterConversations(list, 'nobody')).toEqual([]);
  });

  it('filters by the listing’s title too (what the server searches)', () => {
    expect(filterConversations(list, 'listing B').map((c) => c.id)).toEqual(['b']);
  });

  it('appends a further page, keeping a conversation that moved up meanwhile once, where it is', () => {
    const moved = conversation('c', 'Cy Moved', 'Newer');
    const shown = [moved, ...list];
    const next = [conversation('c', 'Cy Moved', 'Older copy'), conversation('d', 'Di Old', 'Hello')];
    expect(appendPage(shown, next).map((c) => [c.id, c.last_message?.content])).toEqual([
      ['c', 'Newer'],
      ['a', 'Is the plough sold?'],
      ['b', 'See you Friday'],
      ['d', 'Hello'],
    ]);
  });

  it('shows "Deleted user" with ? for its avatar', () => {
    expect(initialOf('Deleted user')).toBe('?');
  });

  it('prefixes the user’s own last message with You: and says Start a conversation when there is none', () => {
    expect(previewText(list[1] as Conversation, ME)).toBe('You: See you Friday');
    expect(previewText(list[0] as Conversation, ME)).toBe('Is the plough sold?');
    expect(previewText(conversation('c', 'X', null), ME)).toBe('Start a conversation');
  });

  it('shows an initial, or ? for no name or an unknown user', () => {
    expect(initialOf('tom Baker')).toBe('T');
    expect(initialOf('')).toBe('?');
    expect(initialOf('Unknown User')).toBe('?');
  });

  it('caps badges at 9+, and previews a message in 50 characters on one line and an ellipsis', () => {
    expect(badgeText(9)).toBe('9');
    expect(badgeText(10)).toBe('9+');
    expect(previewOf('a'.repeat(50))).toBe('a'.repeat(50));
    expect(previewOf(`${'a'.repeat(30)}\n\n${'b'.repeat(30)}`)).toBe(`${'a'.repeat(30)} ${'b'.repeat(19)}...`);
  });

  it('moves a conversation with a live message to the top, counting it unread unless open or own', () => {
    const next = applyNewMessage(list, message('m1', '2026-11-21T10:00:00.000Z', 'other', 'b'), ME, null) as Conversation[];
    expect(next.map((c) => [c.id, c.unread_count, c.last_message?.content])).toEqual([
      ['b', 1, 'text m1'],
      ['a', 0, 'Is the plough sold?'],
    ]);
    expect(applyNewMessage(list, message('m2', '2026-11-21T10:00:00.000Z', 'other', 'b'), ME, 'b')?.[0]?.unread_count).toBe(0);
    expect(applyNewMessage(list, message('m3', '2026-11-21T10:00:00.000Z', ME, 'b'), ME, null)?.[0]?.unread_count).toBe(0);
    expect(applyNewMessage(list, message('m4', '2026-11-21T10:00:00.000Z', 'other', 'new'), ME, null)).toBeUndefined();
  });

  it('clears and totals unread counts', () => {
    const counted = [conversation('a', 'A', 'x', 'o', 3), conversation('b', 'B', 'y', 'o', 2)];
    expect(totalUnread(counted)).toBe(5);
    expect(totalUnread(clearUnread(counted, 'a'))).toBe(2);
  });
});

describe('the chat', () => {
  it('appends new messages, replaces a known one by id, and keeps oldest to newest', () => {
    const shown = [message('1', '2026-11-21T10:00:00.000Z'), message('2', '2026-11-21T10:01:00.000Z')];
    const appended = mergeMessage(shown, message('3', '2026-11-21T10:02:00.000Z'));
    expect(appended.map((m) => m.id)).toEqual(['1', '2', '3']);
    const replaced = mergeMessage(appended, { ...message('2', '2026-11-21T10:01:00.000Z'), read: true });
    expect(replaced.map((m) => [m.id, m.read])).toEqual([
      ['1', false],
      ['2', true],
      ['3', false],
    ]);
    expect(
      prependPage(shown, [message('0', '2026-11-21T09:00:00.000Z'), message('1', '2026-11-21T10:00:00.000Z')]).map((m) => m.id),
    ).toEqual(['0', '1', '2']);
  });

  it('ticks the user’s messages the other party read', () => {
    const shown = [message('1', '2026-11-21T10:00:00.000Z', ME), message('2', '2026-11-21T10:01:00.000Z', ME)];
    expect(markMessagesRead(shown, ['2']).map((m) => m.read)).toEqual([false, true]);
  });

  it('never takes a read tick back: a copy fetched before the other party read it stays read', () => {
    // The chat reloads a second after a send; the reply may be read (and the tick shown) meanwhile.
    const read = markMessagesRead([message('1', '2026-11-21T10:00:00.000Z', ME)], ['1']);
    expect(mergeMessage(read, message('1', '2026-11-21T10:00:00.000Z', ME)).map((m) => m.read)).toEqual([true]);
    const reloaded = [message('1', '2026-11-21T10:00:00.000Z', ME), message('2', '2026-11-21T10:01:00.000Z')];
    expect(keepReadTicks(read, reloaded).map((m) => [m.id, m.read])).toEqual([
      ['1', true],
      ['2', false],
    ]);
    expect(keepReadTicks(null, reloaded)).toEqual(reloaded);
  });
});

describe('booking dates', () => {
  it('are shown as the product shows dates, "3 Mar 2027", in the text previews and cards carry', () => {
    expect(bookingDay('2027-03-03')).toBe('3 Mar 2027');
    expect(bookingDay('2026-12-25')).toBe('25 Dec 2026');
    expect(bookingRequestText('2027-03-03', '2027-03-10', null)).toBe('Booking request: 3 Mar 2027 to 10 Mar 2027');
    expect(bookingRequestText('2027-03-03', '2027-03-03', 'For 40 ewes')).toBe('Booking request: 3 Mar 2027 to 3 Mar 2027\nFor 40 ewes');
    // On one line in a preview.
    expect(previewOf(bookingRequestText('2027-03-03', '2027-03-10', 'Ewes'))).toBe('Booking request: 3 Mar 2027 to 10 Mar 2027 Ewes');
  });

  it('leave anything that is not a day alone', () => {
    expect(bookingDay('soon')).toBe('soon');
  });
});

describe('Book Now dates', () => {
  it('start today or when the rental becomes available, whichever is later, and end with its availability', () => {
    expect(bookableRange('2026-12-01', '2027-01-31', '2026-11-22')).toEqual({ min: '2026-12-01', max: '2027-01-31' });
    expect(bookableRange('2026-10-01', undefined, '2026-11-22')).toEqual({ min: '2026-11-22' });
    expect(bookableRange(undefined, undefined, '2026-11-22')).toEqual({ min: '2026-11-22' });
  });

  it('counts today in UK time', () => {
    expect(todayIso(new Date('2026-06-30T23:30:00Z'))).toBe('2026-07-01');
    expect(todayIso(new Date('2026-12-31T23:30:00Z'))).toBe('2026-12-31');
  });
});
