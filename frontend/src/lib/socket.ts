import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '@events/client-events';
import { LIVE_CHANNEL } from '@contracts/notifications';

/** The socket, typed by the event map the server declares (type-only import: nothing of the backend ships). */
export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: RealtimeSocket | undefined;

/**
 * Opens the page's one socket.io connection (same origin, WebSocket only: while it is not connected,
 * stores/live-events.ts polls the REST API). After a failure it retries for as long as the page is
 * open, waiting 2, 4, 8... seconds up to LIVE_CHANNEL.reconnectDelayMaxMs, each wait varied by half
 * either way so that many phones cut off together do not all come back in the same second. Later
 * calls return the same socket.
 */
export function openSocket(): RealtimeSocket {
  socket ??= io({
    path: '/socket.io',
    transports: ['websocket'],
    reconnectionAttempts: Infinity,
    reconnectionDelay: 2_000,
    reconnectionDelayMax: LIVE_CHANNEL.reconnectDelayMaxMs,
    randomizationFactor: 0.5,
    // SPEC §9: the real-time availability test gives up after 10 s (a connection that neither opens nor fails).
    timeout: 10_000,
  });
  return socket;
}

/** Round trip of the live channel in ms (the server answers 'realtime:ping' at once), or null when it is not connected. */
export async function measureLatency(): Promise<number | null> {
  if (!socket?.connected) return null;
  const started = performance.now();
  try {
    await socket.timeout(5_000).emitWithAck('realtime:ping');
    return Math.round(performance.now() - started);
  } catch {
    return null;
  }
}
