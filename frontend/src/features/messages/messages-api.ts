import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { settle, timeoutSignal, type ApiResult } from '../../lib/api-result';
import { MESSAGING_TEXTS } from '@contracts/messaging';

type Schemas = components['schemas'];
export type Conversation = Schemas['ConversationView'];
export type ChatMessage = Schemas['MessageView'];
export type MessagePage = Schemas['MessagePage'];
export type ConversationPage = Schemas['ConversationPage'];
type Done = Schemas['MessageResponse'];

const signal = timeoutSignal;

/** One page of conversations (the first without `cursor`), only those matching `q` when given. */
export const listConversations = (
  page: { cursor?: string | null; q?: string; only?: 'unread' } = {},
): Promise<ApiResult<ConversationPage>> =>
  settle(
    api.GET('/api/messages/conversations', {
      params: {
        query: {
          ...(page.cursor ? { cursor: page.cursor } : {}),
          ...(page.q?.trim() ? { q: page.q.trim() } : {}),
          ...(page.only ? { only: page.only } : {}),
        },
      },
      signal: signal(),
    }),
    'Failed to load conversations',
  );

export const getConversation = (id: string): Promise<ApiResult<Conversation>> =>
  settle(api.GET('/api/messages/conversations/{id}', { params: { path: { id } }, signal: signal() }), 'Failed to load the conversation');

export const startConversation = (listingId: string): Promise<ApiResult<Conversation>> =>
  settle(api.POST('/api/messages/conversations', { body: { listingId }, signal: signal() }), MESSAGING_TEXTS.sendFailed);

export const deleteConversation = (id: string): Promise<ApiResult<Done>> =>
  settle(api.DELETE('/api/messages/conversations/{id}', { params: { path: { id } }, signal: signal() }), MESSAGING_TEXTS.deleteFailed);

export const loadMessages = (id: string, before?: string): Promise<ApiResult<MessagePage>> =>
  settle(
    api.GET('/api/messages/conversations/{id}/messages', {
      params: { path: { id }, query: before ? { before } : {} },
      signal: signal(),
    }),
    'Failed to load messages',
  );

export const sendMessage = (conversationId: string, content: string): Promise<ApiResult<ChatMessage>> =>
  settle(api.POST('/api/messages/send', { body: { conversationId, content }, signal: signal() }), MESSAGING_TEXTS.sendFailed);

export const markRead = (conversationId: string, userId: string): Promise<ApiResult<Schemas['MarkReadResult']>> =>
  settle(
    api.PUT('/api/messages/read/{conversationId}/{userId}', { params: { path: { conversationId, userId } }, signal: signal() }),
    'Failed to mark messages read',
  );

export const blockUser = (userId: string): Promise<ApiResult<Done>> =>
  settle(api.POST('/api/messages/blocks', { body: { userId }, signal: signal() }), 'Failed to block user');

export const unblockUser = (userId: string): Promise<ApiResult<Done>> =>
  settle(api.DELETE('/api/messages/blocks/{userId}', { params: { path: { userId } }, signal: signal() }), 'Failed to unblock user');

export const decideBooking = (messageId: string, decision: 'accepted' | 'declined'): Promise<ApiResult<ChatMessage>> =>
  settle(
    api.PUT('/api/messages/booking-requests/{messageId}', { params: { path: { messageId } }, body: { decision }, signal: signal() }),
    'Failed to answer the booking request',
  );

export const requestBooking = (body: Schemas['BookingRequestRequest']): Promise<ApiResult<Schemas['BookingRequestResult']>> =>
  settle(api.POST('/api/messages/booking-requests', { body, signal: signal() }), MESSAGING_TEXTS.sendFailed);

/** The days a rental's accepted bookings hold, from today on. */
export const bookedDates = (listingId: string): Promise<ApiResult<Array<Schemas['BookedDatesView']>>> =>
  settle(
    api.GET('/api/messages/booked-dates/{listingId}', { params: { path: { listingId } }, signal: signal() }),
    'Failed to load the dates taken',
  );
