/**
 * Events the server pushes to browsers over socket.io, with their payloads, declared once and
 * imported by the browser as types. Later issues add listing, message and notification events.
 */
/** The spec's realtime event (SPEC §3): a type, its data and when it happened. */
import type { ChatMessage } from '../contracts/messaging.js';

export interface RealtimeEvent<T extends string, D> {
  type: T;
  data: D;
  timestamp: string;
}

export interface ServerToClientEvents {
  /** The user's profile changed (in another tab or device): reload it. */
  PROFILE_UPDATED: (event: RealtimeEvent<'PROFILE_UPDATED', { user_id: string }>) => void;
  /** One of the user's uploaded images finished processing: ready (variants published) or failed. */
  IMAGE_PROCESSED: (event: RealtimeEvent<'IMAGE_PROCESSED', { image_id: string; status: 'ready' | 'failed' }>) => void;
  /** A message was stored in one of the user's conversations (sent to its recipient and to the sender's other tabs). */
  NEW_MESSAGE: (event: RealtimeEvent<'NEW_MESSAGE', { message: ChatMessage; conversation_title: string }>) => void;
  /** A participant read a conversation: the other party's read ticks, the reader's other tabs' badges. */
  MESSAGES_READ: (
    event: RealtimeEvent<'MESSAGES_READ', { conversation_id: string; reader_id: string; message_ids: string[]; read_at: string }>,
  ) => void;
  /** A booking request was accepted or declined: both sides' cards change. */
  BOOKING_UPDATED: (event: RealtimeEvent<'BOOKING_UPDATED', { message: ChatMessage }>) => void;
  /** Sent on connect so a client can confirm the live channel works end to end. */
  'realtime:ready': (payload: { connectedAt: string; signedIn: boolean }) => void;
  /** A server-side probe of the live channel (diagnostics measure its latency). */
  'realtime:ping': (payload: { sentAt: string }) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}

/** What the server knows about a connected socket. */
export interface SocketData {
  /** Set when the handshake carried a valid session. */
  userId?: string;
}
