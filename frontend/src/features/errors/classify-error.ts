export type ErrorKind = 'network' | 'authentication' | 'unknown';

const AUTH_MESSAGE = /^AUTH:|unauthori[sz]ed|session expired|invalid or expired token/i;
const NETWORK_MESSAGE = /^NETWORK:|failed to fetch|load failed|networkerror|network error|timeout|timed out/i;

/**
 * Sorts an error into the kinds the error screen distinguishes. Accepts anything that may be
 * thrown: Error objects, HTTP-like objects with a numeric status, or plain strings.
 */
export function classifyError(error: unknown): ErrorKind {
  const status = statusOf(error);
  const message = messageOf(error);
  if (status === 401 || AUTH_MESSAGE.test(message)) return 'authentication';
  if (status === 0 || NETWORK_MESSAGE.test(message) || nameOf(error) === 'TimeoutError') return 'network';
  return 'unknown';
}

export const ERROR_MESSAGES: Record<ErrorKind, string> = {
  network: "We're having trouble connecting to our servers.",
  authentication: 'There was an authentication issue. You may need to sign in again.',
  unknown: 'An unexpected error occurred. Please try again.',
};

function statusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

function messageOf(error: unknown): string {
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') {
    return error.message;
  }
  return '';
}

function nameOf(error: unknown): string | undefined {
  return error instanceof Error ? error.name : undefined;
}
