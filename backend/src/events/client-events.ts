/**
 * Events the server pushes to browsers over socket.io, with their payloads, declared once.
 * Later issues add listing, message and notification events here.
 */
export interface ServerToClientEvents {
  /** Sent on connect so a client can confirm the live channel works end to end. */
  'realtime:ready': (payload: { connectedAt: string }) => void;
}

// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface ClientToServerEvents {}
