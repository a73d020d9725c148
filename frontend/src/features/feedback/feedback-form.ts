import { FEEDBACK_FIELDS, FEEDBACK_TEXTS, validateFeedback, type FeedbackCategory, type FeedbackField } from '@contracts/feedback';
import { isRecord } from '../../lib/is-record';

export { FEEDBACK_FIELDS, FEEDBACK_TEXTS, type FeedbackField };
export type FeedbackErrors = Partial<Record<FeedbackField, string>>;

/** What the form holds, as typed (strings from the form's fields). */
export type FeedbackFormValues = Record<FeedbackField, string>;

/** The request body: trimmed text, the rating as a number. */
export interface FeedbackPayload {
  name: string;
  email: string;
  category: FeedbackCategory;
  rating: number;
  message: string;
}

export function toPayload(values: FeedbackFormValues): FeedbackPayload {
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    category: values.category as FeedbackCategory,
    rating: values.rating === '' ? Number.NaN : Number(values.rating),
    message: values.message.trim(),
  };
}

/** The form's rules (the same the API applies). Empty result = valid. */
export function validateFeedbackForm(values: FeedbackFormValues): FeedbackErrors {
  return validateFeedback(toPayload(values));
}

/** SPEC §5: every message in one banner, joined with commas, in the form's order. */
export function bannerText(errors: FeedbackErrors): string {
  return FEEDBACK_FIELDS.flatMap((field) => (errors[field] ? [errors[field]] : [])).join(', ');
}

/** The message counter under the message box: "42/1000". */
export function counterText(length: number, max: number): string {
  return `${length}/${max}`;
}

export type FeedbackOutcome =
  | { kind: 'sent' }
  | { kind: 'invalid'; fields: FeedbackErrors }
  /** `retry`: a timeout or a connection error, for which the form offers Try Again (SPEC §2). */
  | { kind: 'failed'; message: string; retry: boolean };

/** What the form does with POST /api/feedback's answer (SPEC §8 "Feedback"). */
export function interpretFeedbackResponse(status: number, body: unknown): FeedbackOutcome {
  const envelope = isRecord(body) ? body : {};
  if (status >= 200 && status < 300 && envelope['success'] !== false) return { kind: 'sent' };
  if (status === 400 && isRecord(envelope['fields'])) {
    const fields: FeedbackErrors = {};
    for (const field of FEEDBACK_FIELDS) {
      const message = envelope['fields'][field];
      if (typeof message === 'string' && message) fields[field] = message;
    }
    if (Object.keys(fields).length > 0) return { kind: 'invalid', fields };
  }
  if (status === 401) return { kind: 'failed', message: FEEDBACK_TEXTS.sessionExpired, retry: false };
  const error = envelope['error'];
  return { kind: 'failed', message: typeof error === 'string' && error ? error : FEEDBACK_TEXTS.failedTryAgain, retry: false };
}

/** A call that never got an answer: a timeout, or no connection; both offer Try Again. */
export function interpretFeedbackFailure(error: unknown): FeedbackOutcome {
  const name = isRecord(error) && typeof error['name'] === 'string' ? error['name'] : '';
  const message = isRecord(error) && typeof error['message'] === 'string' ? error['message'] : String(error);
  const timedOut = name === 'TimeoutError' || /timeout|timed out/i.test(message);
  return { kind: 'failed', message: timedOut ? FEEDBACK_TEXTS.timeout : FEEDBACK_TEXTS.connection, retry: true };
}
