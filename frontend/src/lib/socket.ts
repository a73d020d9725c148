import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../../backend/src/events/client-events';
import { $realtimeStatus } from '../stores/realtime-status';

/** The socket, typed by the event map the server declares (type-only import: nothing of the backend ships). */
export type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

let socket: RealtimeSocket | undefined;

/**
 * Opens the page's one socket.io connection (same origin) and mirrors its state into
 * $realtimeStatus. Safe to call more than once: later calls return the existing socket.
 */
export function startRealtime(): RealtimeSocket {
  if (socket) return socket;
  $realtimeStatus.set('connecting');
  socket = io({
    path: '/socket.io',
    transports: ['websocket', 'polling'],
    // Without this the client gives up when the first transport (WebSocket) is blocked.
    tryAllTransports: true,
  });
  socket.on('connect', () => $realtimeStatus.set('connected'));
  socket.on('disconnect', () => $realtimeStatus.set('disconnected'));
  socket.on('connect_error', () => $realtimeStatus.set('disconnected'));
  socket.io.on('reconnect_attempt', () => $realtimeStatus.set('connecting'));
  return socket;
}

export function getRealtimeSocket(): RealtimeSocket | undefined {
  return socket;
}
