/** SPEC §8 "Connectivity banner", word for word. */
export const CONNECTIVITY_TEXTS = {
  checking: 'Checking server connection...',
  serverDown: 'Unable to connect to the server. Some features may be unavailable.',
  operational: 'All systems operational',
  offline: 'You appear to be offline. Please check your internet connection.',
} as const;

/** SPEC §9: the server is checked every 30 s on the feedback page. */
export const HEALTH_CHECK_INTERVAL_MS = 30_000;
/** How long "All systems operational" stays after a problem clears. */
export const RECOVERED_NOTICE_MS = 4_000;

export type ServerState = 'checking' | 'online' | 'offline';

export interface Banner {
  text: string;
  tone: 'info' | 'danger' | 'success';
}

/**
 * The banner for the server's and the browser's state (SPEC §4 "Server connectivity"): the
 * browser being offline comes first; when both are online the banner is hidden, except for a
 * short "All systems operational" once a problem has cleared (`recovered`).
 */
export function connectivityBanner(server: ServerState, browserOnline: boolean, recovered: boolean): Banner | null {
  if (!browserOnline) return { text: CONNECTIVITY_TEXTS.offline, tone: 'danger' };
  if (server === 'checking') return { text: CONNECTIVITY_TEXTS.checking, tone: 'info' };
  if (server === 'offline') return { text: CONNECTIVITY_TEXTS.serverDown, tone: 'danger' };
  return recovered ? { text: CONNECTIVITY_TEXTS.operational, tone: 'success' } : null;
}

/** The server is up when GET /api/health answers 2xx with success; anything else (503, no answer) is down. */
export function serverStateOf(status: number, body: unknown): ServerState {
  const ok = typeof body === 'object' && body !== null && (body as { success?: unknown }).success === true;
  return status >= 200 && status < 300 && ok ? 'online' : 'offline';
}
