import { isRecord } from './is-record';

/** What an island needs from an API answer: the data, or a message (and per-field messages). */
export type ApiResult<T> =
  { ok: true; data: T } | { ok: false; status: number; error: string; fields: Record<string, string>; retryAfter?: string };

export const NETWORK_ERROR = "We're having trouble connecting to our servers.";

const REQUEST_TIMEOUT_MS = 15_000;

/** A signal for one call: the SPEC's 15-second request timeout (§9). */
export function timeoutSignal(): AbortSignal {
  return AbortSignal.timeout(REQUEST_TIMEOUT_MS);
}

/**
 * Reads an envelope (`{ success: true, data }` or `{ success: false, error, fields? }`). A failure
 * without a message of its own gets `fallback` (the SPEC's "server error or '<fallback>'").
 */
export function interpretEnvelope<T>(status: number, body: unknown, fallback: string): ApiResult<T> {
  const envelope = isRecord(body) ? body : {};
  // A 2xx that is not our envelope (a proxy's page, say) is no answer to read data from; 204 has no body.
  const answered = status === 204 || envelope['success'] === true || (envelope['success'] !== false && 'data' in envelope);
  if (status >= 200 && status < 300 && answered) return { ok: true, data: envelope['data'] as T };
  const error = typeof envelope['error'] === 'string' && envelope['error'] ? envelope['error'] : fallback;
  const fields: Record<string, string> = {};
  if (isRecord(envelope['fields'])) {
    for (const [name, message] of Object.entries(envelope['fields'])) if (typeof message === 'string') fields[name] = message;
  }
  return { ok: false, status, error, fields };
}

/**
 * What a form's banner says of a refusal: nothing when every field the API names is shown beside
 * its input, since the API's `error` joins those same messages and the form would say each twice.
 */
export function formAlert(result: { error: string; fields: Record<string, string> }, shownFields: readonly string[]): string | null {
  const named = Object.keys(result.fields);
  return named.length > 0 && named.every((name) => shownFields.includes(name)) ? null : result.error;
}

/**
 * Awaits an openapi-fetch call (or a function making one); a network failure or timeout is a result too
 * (status 0, NETWORK_ERROR). A failure without a message of its own gets `fallback`, given the status or not.
 */
export async function settle<T>(
  call: CallResult | (() => CallResult),
  fallback: string | ((status: number) => string),
): Promise<ApiResult<T>> {
  try {
    const { data, error, response } = await (typeof call === 'function' ? call() : call);
    const result = interpretEnvelope<T>(
      response.status,
      data ?? error,
      typeof fallback === 'string' ? fallback : fallback(response.status),
    );
    const retryAfter = response.headers.get('retry-after');
    return !result.ok && retryAfter ? { ...result, retryAfter } : result;
  } catch (error) {
    console.error(typeof fallback === 'string' ? fallback : 'API call failed', error);
    return { ok: false, status: 0, error: NETWORK_ERROR, fields: {} };
  }
}

type CallResult = Promise<{ data?: unknown; error?: unknown; response: Response }>;
