import { io, type Socket } from 'socket.io-client';
import { $realtimeStatus } from '../stores/realtime-status';

let socket: Socket | undefined;

/**
 * Opens the page's one socket.io connection (same origin) and mirrors its state into
 * $realtimeStatus. Safe to call more than once: later calls return the existing socket.
 */
export function startRealtime(): Socket {
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

export function getRealtimeSocket(): Socket | undefined {
  return socket;
}
