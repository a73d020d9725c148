import { api } from './api';
import type { components } from './api-types';
import { settle, timeoutSignal } from './api-result';

export type LiveEventPage = components['schemas']['LiveEventPage'];

/** GET /api/realtime/events: what came after `after` (null: only where the log stands); null when the call failed. */
export async function fetchMissedEvents(after: number | null): Promise<LiveEventPage | null> {
  const outcome = await settle<LiveEventPage>(
    api.GET('/api/realtime/events', { params: { query: after === null ? {} : { after } }, signal: timeoutSignal() }),
    'Could not fetch live events',
  );
  return outcome.ok ? outcome.data : null;
}
