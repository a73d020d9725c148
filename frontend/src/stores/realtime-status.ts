import { atom } from 'nanostores';

export type RealtimeStatus = 'connecting' | 'connected' | 'disconnected';

/** State of the page's socket.io connection; written only by lib/socket.ts. */
export const $realtimeStatus = atom<RealtimeStatus>('connecting');
