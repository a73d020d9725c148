import { atom } from 'nanostores';

/**
 * How the page receives live events (SPEC §4 "Real-time connection"): over the socket
 * ('realtime'), by asking the API every 5 s because the socket gave up ('polling'), or not at all
 * ('disconnected'). Written only by stores/live-events.ts.
 */
export type RealtimeStatus = 'connecting' | 'realtime' | 'polling' | 'disconnected';

export const $realtimeStatus = atom<RealtimeStatus>('connecting');

/** The header dot's accessible label for each state. */
export const REALTIME_STATUS_LABELS: Record<RealtimeStatus, string> = {
  connecting: 'Live updates: connecting',
  realtime: 'Live updates: connected (real-time)',
  polling: 'Live updates: checking every 5 seconds (real-time unavailable)',
  disconnected: 'Live updates: disconnected',
};
