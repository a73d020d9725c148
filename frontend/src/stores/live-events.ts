import type { LiveEventPage } from '../lib/live-events-api';
import { fetchMissedEvents } from '../lib/live-events-api';
import type { ServerToClientEvents, Sequenced } from '@events/client-events';
import { LIVE_CHANNEL } from '@contracts/notifications';
import { $realtimeStatus } from './realtime-status';
import { LiveSequence } from '../lib/live-sequence';
import { hasSignedInHint } from '../lib/signed-in-hint';
import { openSocket, type RealtimeSocket } from '../lib/socket';

export type LiveEventType = keyof ServerToClientEvents;
export type LiveEventPayload<E extends LiveEventType> = Sequenced<Parameters<ServerToClientEvents[E]>[0]>;

type Handler = (payload: unknown) => void;

const SEQ_KEY = 'fm_live_seq';
/** Consecutive failed polls before the dot says disconnected (polling goes on, to recover). */
const POLL_FAILURES_BEFORE_DISCONNECTED = 3;

const listeners = new Map<string, Set<Handler>>();
let started = false;
let sequence = new LiveSequence();
let socket: RealtimeSocket | undefined;
let pollTimer: ReturnType<typeof setInterval> | undefined;
let pollDeadline: ReturnType<typeof setTimeout> | undefined;
let pollFailures = 0;
let catchingUp: Promise<boolean> | undefined;

/**
 * Calls `handler` with every live event of `type` the signed-in user receives, each once, however
 * it arrives: over the socket, from the catch-up call after a reconnect, or by REST polling when
 * WebSockets are unavailable. Returns the function that stops it. The first call starts the live
 * channel (never for visitors: without the signed-in hint nothing is opened).
 */
export function onLiveEvent<E extends LiveEventType>(type: E, handler: (payload: LiveEventPayload<E>) => void): () => void {
  let set = listeners.get(type);
  if (!set) listeners.set(type, (set = new Set()));
  const wrapped: Handler = (payload) => handler(payload as LiveEventPayload<E>);
  set.add(wrapped);
  startLiveChannel();
  return () => set.delete(wrapped);
}

/** Opens the live channel for a signed-in page; safe to call more than once. */
export function startLiveChannel(): void {
  if (started || typeof window === 'undefined' || !hasSignedInHint(document.cookie)) return;
  started = true;
  sequence = new LiveSequence(readStoredSeq());
  $realtimeStatus.set('connecting');
  socket = openSocket();
  socket.on('connect', () => {
    clearTimeout(pollDeadline);
    stopPolling();
    $realtimeStatus.set('realtime');
    void catchUp();
  });
  socket.on('disconnect', () => {
    if (!pollTimer) $realtimeStatus.set('connecting');
  });
  // A WebSocket that fails (a proxy or network that blocks them) does not keep the page waiting: it
  // polls the API at once while the socket keeps retrying behind, and the first connect stops it.
  socket.on('connect_error', startPolling);
  pollDeadline = setTimeout(() => {
    if (!socket?.connected) startPolling();
  }, LIVE_CHANNEL.pollAfterMs);
  socket.onAny((event: string, payload: unknown) => receive(event, payload));
}

function receive(type: string, payload: unknown): void {
  const seq = seqOf(payload);
  if (seq !== undefined) {
    if (!sequence.accept(seq)) return;
    storeSeq();
    // Arrived ahead of one we have not seen (sent while this tab reconnected): fetch it.
    if (sequence.hasGap) void catchUp();
  }
  for (const handler of listeners.get(type) ?? []) {
    try {
      handler(payload);
    } catch (error) {
      console.error(`A ${type} handler failed`, error);
    }
  }
}

/** Asks the API for every event after the last one handled, page by page; false when the call failed. */
function catchUp(): Promise<boolean> {
  catchingUp ??= (async () => {
    try {
      for (let pages = 0; pages < 50; pages++) {
        const page: LiveEventPage | null = await fetchMissedEvents(sequence.after);
        if (!page) return false;
        sequence.settle(page.latest_seq);
        for (const event of page.events) receive(event.type, withSeq(event.payload, event.seq));
        const last = page.events.at(-1)?.seq;
        if (last === undefined || last >= page.latest_seq) {
          // Older than the log keeps (purged): nothing more to fetch.
          sequence.skipTo(page.latest_seq);
          break;
        }
      }
      storeSeq();
      return true;
    } finally {
      catchingUp = undefined;
    }
  })();
  return catchingUp;
}

function startPolling(): void {
  if (pollTimer) return;
  $realtimeStatus.set('polling');
  pollFailures = 0;
  const poll = async () => {
    if (await catchUp()) {
      pollFailures = 0;
      if ($realtimeStatus.get() !== 'realtime') $realtimeStatus.set('polling');
    } else if (++pollFailures >= POLL_FAILURES_BEFORE_DISCONNECTED) {
      $realtimeStatus.set('disconnected');
    }
  };
  void poll();
  pollTimer = setInterval(() => void poll(), LIVE_CHANNEL.pollingIntervalMs);
}

function stopPolling(): void {
  clearInterval(pollTimer);
  pollTimer = undefined;
}

function seqOf(payload: unknown): number | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const seq = (payload as { seq?: unknown }).seq;
  return typeof seq === 'number' ? seq : undefined;
}

function withSeq(payload: unknown, seq: number): unknown {
  return typeof payload === 'object' && payload !== null ? { ...payload, seq } : { seq };
}

function readStoredSeq(): number | null {
  try {
    const stored = Number(sessionStorage.getItem(SEQ_KEY));
    return Number.isInteger(stored) && stored > 0 ? stored : null;
  } catch {
    return null;
  }
}

function storeSeq(): void {
  try {
    if (sequence.after !== null) sessionStorage.setItem(SEQ_KEY, String(sequence.after));
  } catch {
    // Storage refused (private mode): this tab starts from the newest again on the next page.
  }
}
