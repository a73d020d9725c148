import type { ChatMessage } from '../contracts/messaging.js';
import type { NotificationView } from '../contracts/notifications.js';

/**
 * Events the server pushes to browsers over socket.io, with their payloads, declared once and
 * imported by the browser as types. Events to one user (Realtime.toUser) also carry `seq`, their
 * place in that user's event log (see Sequenced).
 */

/** The spec's realtime event (SPEC §3): a type, its data and when it happened. */
export interface RealtimeEvent<T extends string, D> {
  type: T;
  data: D;
  timestamp: string;
}

/** A notification stored for the user: the bell adds it; `data` says what it is about. */
export type NotificationEvent<T extends string, D = object> = RealtimeEvent<T, D & { notification: NotificationView }>;

/** An event as a user's sockets receive it: with its seq in the user's event log (absent when it could not be logged). */
export type Sequenced<P> = P & { seq?: number };

export interface ServerToClientEvents {
  /**
   * The user's profile changed (in another tab or device): reload it. Carries the 'Profile
   * Updated' notification stored for it.
   */
  PROFILE_UPDATED: (event: RealtimeEvent<'PROFILE_UPDATED', { user_id: string; notification?: NotificationView }>) => void;
  /** A listing was posted in a category the user follows ('New Listing Available'). */
  NEW_LISTING: (event: NotificationEvent<'NEW_LISTING', { listing_id: string }>) => void;
  /** A listing the user saved changed price or status ('Listing Updated'). */
  LISTING_UPDATED: (event: NotificationEvent<'LISTING_UPDATED', { listing_id: string }>) => void;
  /** The 'New Message' notification of a message sent to the user (the chat itself gets NEW_MESSAGE). */
  MESSAGE_NOTIFICATION: (event: NotificationEvent<'MESSAGE_NOTIFICATION', { conversation_id: string | null; message_id: string }>) => void;
  /** The owner accepted or declined the user's booking request. */
  BOOKING_DECIDED: (
    event: NotificationEvent<'BOOKING_DECIDED', { conversation_id: string; message_id: string; decision: 'accepted' | 'declined' }>,
  ) => void;
  /** Someone reviewed the user after a deal ('New Review'). */
  REVIEW_RECEIVED: (event: NotificationEvent<'REVIEW_RECEIVED', { review_id: string }>) => void;
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

export interface ClientToServerEvents {
  /** The browser measures the live channel's round trip (diagnostics): the server answers at once. */
  'realtime:ping': (ack: (reply: { receivedAt: string }) => void) => void;
}

/** What the server knows about a connected socket. */
export interface SocketData {
  /** Set when the handshake carried a valid session. */
  userId?: string;
  /** That session (its end closes the socket). */
  sessionId?: string;
}
