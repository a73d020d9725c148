import { isRecord } from '../../lib/is-record';
import { CONTACT_FIELDS, type ContactErrors } from './contact-validation';

export type ContactOutcome =
  { kind: 'sent' } | { kind: 'invalid'; fields: ContactErrors } | { kind: 'rate-limited'; message: string } | { kind: 'failed' };

const RATE_LIMITED_FALLBACK = 'Too many messages from your connection. Please wait a few minutes and try again.';

/**
 * What the form should do with POST /api/contact's answer. A 400 carries per-field messages
 * (the server is the authority on validity); a 400 without any is treated as a plain failure.
 */
export function interpretContactResponse(status: number, body: unknown): ContactOutcome {
  const envelope = isRecord(body) ? body : {};
  if (status >= 200 && status < 300 && envelope['success'] !== false) return { kind: 'sent' };
  if (status === 429) {
    const error = envelope['error'];
    return { kind: 'rate-limited', message: typeof error === 'string' && error ? error : RATE_LIMITED_FALLBACK };
  }
  if (status === 400) {
    const fields = fieldErrors(envelope['fields']);
    if (Object.keys(fields).length > 0) return { kind: 'invalid', fields };
  }
  return { kind: 'failed' };
}

function fieldErrors(raw: unknown): ContactErrors {
  const errors: ContactErrors = {};
  if (!isRecord(raw)) return errors;
  for (const field of CONTACT_FIELDS) {
    const message = raw[field];
    if (typeof message === 'string' && message) errors[field] = message;
  }
  return errors;
}
