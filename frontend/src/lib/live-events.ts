import type { ServerToClientEvents } from '../../../backend/src/events/client-events';
import { startRealtime } from './socket';

/** The spec's live event types (SPEC §3 "Realtime event") that carry `{ type, data, timestamp }`. */
export type LiveEventType = {
  [K in keyof ServerToClientEvents]: Parameters<ServerToClientEvents[K]>[0] extends { type: K } ? K : never;
}[keyof ServerToClientEvents];
export type LiveEvent<T extends LiveEventType> = Parameters<ServerToClientEvents[T]>[0];

/**
 * Calls `handler` for each live event of `type` the signed-in user receives; returns the
 * unsubscribe. The one way islands receive live events: it opens the page's socket on first use.
 */
export function onLiveEvent<T extends LiveEventType>(type: T, handler: (event: LiveEvent<T>) => void): () => void {
  const socket = startRealtime();
  const listener = handler as never;
  socket.on(type as never, listener);
  return () => {
    socket.off(type as never, listener);
  };
}
