import type { Browser } from './accounts.js';

/** Someone signed in, as the account factories return them. */
interface Member {
  browser: Browser;
}

/** A conversation as the API returns it. */
export interface ConversationView {
  id: string;
  title: string;
  listing: { id: string; title: string; image: string | null; status: string; is_owner: boolean } | null;
  other_participant: { id: string; name: string; avatar_url: string | null; exists: boolean };
  last_message: { content: string; sender_id: string | null } | null;
  unread_count: number;
  blocked: boolean;
}

/** A message as the API returns it. */
export interface MessageView {
  id: string;
  conversation_id: string;
  sender_id: string | null;
  sender_name: string;
  content: string;
  kind: string;
  read: boolean;
  safety_notice: boolean;
  booking: { from: string; to: string; status: string; listing_id: string; quote?: Record<string, unknown> | null } | null;
}

async function expectStatus<T>(what: string, status: number, response: Promise<{ statusCode: number; body: string; json<R>(): R }>) {
  const answer = await response;
  if (answer.statusCode !== status) throw new Error(`${what}: ${answer.statusCode} ${answer.body}`);
  return answer.json<{ data: T }>().data;
}

/** `buyer` opens (or reopens) the conversation about a listing with its seller. */
export const startConversation = (buyer: Member, listingId: string) =>
  expectStatus<ConversationView>('start conversation', 200, buyer.browser.call('POST', '/api/messages/conversations', { listingId }));

/** `from` sends a message in a conversation they are part of. */
export const sendMessage = (from: Member, conversationId: string, content: string) =>
  expectStatus<MessageView>('send message', 201, from.browser.call('POST', '/api/messages/send', { conversationId, content }));

/** `renter` asks to book a rental for the days `from`–`to` (YYYY-MM-DD); the request arrives pending in their conversation. */
export const requestBooking = (renter: Member, listingId: string, dates: { from: string; to: string; note?: string; quantity?: number }) =>
  expectStatus<{ conversation_id: string; message: MessageView }>(
    'booking request',
    201,
    renter.browser.call('POST', '/api/messages/booking-requests', { listingId, ...dates }),
  );

/** The rental's owner accepts or declines a booking request. */
export const decideBooking = (owner: Member, messageId: string, decision: 'accepted' | 'declined') =>
  expectStatus<MessageView>(
    'booking decision',
    200,
    owner.browser.call('PUT', `/api/messages/booking-requests/${messageId}`, { decision }),
  );

/** A date `offset` days from today, as booking requests take them (YYYY-MM-DD). */
export const day = (offset: number) => new Date(Date.now() + offset * 24 * 3600_000).toISOString().slice(0, 10);
