import { textFieldError, trimText, type TextRule } from './text-rules.js';

/** The six categories of SPEC §9, with the response time §9 states for each (hours). */
export const FEEDBACK_CATEGORIES = [
  { value: 'general-feedback', label: 'General Feedback', responseHours: 72 },
  { value: 'bug-report', label: 'Bug Report', responseHours: 24 },
  { value: 'feature-request', label: 'Feature Request', responseHours: 48 },
  { value: 'user-experience', label: 'User Experience', responseHours: 48 },
  { value: 'performance-issue', label: 'Performance Issue', responseHours: 48 },
  { value: 'other', label: 'Other', responseHours: 48 },
] as const;

export type FeedbackCategory = (typeof FEEDBACK_CATEGORIES)[number]['value'];
export const FEEDBACK_CATEGORY_VALUES = FEEDBACK_CATEGORIES.map((c) => c.value) as FeedbackCategory[];

export const FEEDBACK_RATING_MIN = 1;
export const FEEDBACK_RATING_MAX = 5;

/** The text fields of the feedback form (SPEC §5 "Feedback", plus maximum lengths); the counter shows /1000. */
export const FEEDBACK_TEXT_RULES = {
  name: { label: 'Name', maxLength: 100, singleLine: true },
  email: { label: 'Email', maxLength: 254, email: true, singleLine: true },
  message: { label: 'Message', minLength: 10, maxLength: 1000 },
} as const satisfies Record<string, TextRule>;

export type FeedbackField = 'name' | 'email' | 'category' | 'rating' | 'message';
/** The order the form shows fields and joins its messages in. */
export const FEEDBACK_FIELDS: readonly FeedbackField[] = ['name', 'email', 'category', 'rating', 'message'];

/** SPEC §8 "Feedback" and §5, word for word. */
export const FEEDBACK_TEXTS = {
  categoryRequired: 'Please select a category',
  ratingRequired: 'Please provide a rating',
  rateLimited: 'Too much feedback from your connection. Please wait a few minutes and try again.',
  submitted: 'Feedback Submitted Successfully!',
  failedTitle: 'Failed to Submit Feedback',
  failed: 'Failed to send feedback',
  failedTryAgain: 'Failed to send feedback. Please try again.',
  timeout: 'The server is taking too long to respond. Please try again in a moment.',
  connection: 'Unable to connect to the server. Please check your internet connection and try again.',
  sessionExpired: 'Your session has expired. Please sign in again and try submitting your feedback.',
} as const;

export function categoryError(value: unknown): string | undefined {
  return typeof value === 'string' && (FEEDBACK_CATEGORY_VALUES as string[]).includes(value) ? undefined : FEEDBACK_TEXTS.categoryRequired;
}

export function ratingError(value: unknown): string | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= FEEDBACK_RATING_MIN && value <= FEEDBACK_RATING_MAX
    ? undefined
    : FEEDBACK_TEXTS.ratingRequired;
}

export interface FeedbackValues {
  name: unknown;
  email: unknown;
  category: unknown;
  rating: unknown;
  message: unknown;
}

/** One message per invalid field, in the form's order (text fields trimmed first); empty when valid. */
export function validateFeedback(values: FeedbackValues): Partial<Record<FeedbackField, string>> {
  const errors: Partial<Record<FeedbackField, string>> = {};
  for (const field of FEEDBACK_FIELDS) {
    const error =
      field === 'category'
        ? categoryError(values.category)
        : field === 'rating'
          ? ratingError(values.rating)
          : textFieldError(FEEDBACK_TEXT_RULES[field], trimText(values[field]));
    if (error) errors[field] = error;
  }
  return errors;
}

export function categoryLabel(value: FeedbackCategory): string {
  return FEEDBACK_CATEGORIES.find((c) => c.value === value)?.label ?? value;
}
