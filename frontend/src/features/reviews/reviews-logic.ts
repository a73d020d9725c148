import { REVIEW_RULES, starsError } from '@contracts/reviews';
import { textFieldError, trimText } from '@contracts/text-rules';
import { formatDate } from '../../lib/format';

/** "★★★★☆" for 4 stars. */
export function starsText(stars: number): string {
  const whole = Math.max(0, Math.min(5, Math.round(stars)));
  return '★'.repeat(whole) + '☆'.repeat(5 - whole);
}

/** "4 out of 5 stars", what screen readers say of starsText. */
export function starsLabel(stars: number): string {
  return `${stars} out of 5 star${stars === 1 ? '' : 's'}`;
}

/** The summary above a member's reviews: "4.3 out of 5 from 11 reviews", or just the count under 3. */
export function reviewsSummary(count: number, average: number | null): string {
  if (count === 0) return 'No reviews yet.';
  const reviews = `${count} review${count === 1 ? '' : 's'}`;
  return average === null ? `${reviews}; the average shows from 3 reviews.` : `${average.toFixed(1)} out of 5 from ${reviews}`;
}

/** "26 Nov 2026". */
export function reviewDate(iso: string): string {
  return formatDate(new Date(iso), { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'Europe/London' });
}

/** The review form's values, checked as the API checks them: the field errors, or none. */
export function reviewErrors(stars: unknown, text: string): Partial<Record<'stars' | 'text', string>> {
  const errors: Partial<Record<'stars' | 'text', string>> = {};
  const starsProblem = starsError(stars);
  if (starsProblem) errors.stars = starsProblem;
  const textProblem = textFieldError(REVIEW_RULES.text, trimText(text));
  if (textProblem) errors.text = textProblem;
  return errors;
}

/** The reply form's value checked as the API checks it: the message, or undefined. */
export function replyError(text: string): string | undefined {
  return textFieldError(REVIEW_RULES.reply, trimText(text));
}
