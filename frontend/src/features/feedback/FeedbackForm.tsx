import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { FEEDBACK_CATEGORIES, FEEDBACK_TEXT_RULES } from '@contracts/feedback';
import { readFormFields } from '../../lib/form-values';
import { useHydrated } from '../../lib/use-hydrated';
import { useResetAfter } from '../../lib/use-reset-after';
import { loadSession } from '../../stores/session';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { submitFeedback } from './feedback-api';
import {
  bannerText,
  counterText,
  FEEDBACK_FIELDS,
  FEEDBACK_TEXTS,
  toPayload,
  validateFeedbackForm,
  type FeedbackErrors,
  type FeedbackField,
  type FeedbackPayload,
} from './feedback-form';
import './feedback.css';

/** SPEC §9: the form empties 3 seconds after a success. */
const RESET_AFTER_MS = 3000;
const MESSAGE_MAX = FEEDBACK_TEXT_RULES.message.maxLength;
const RATINGS = [1, 2, 3, 4, 5] as const;
const RATING_WORDS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

type Status =
  { kind: 'idle' } | { kind: 'sending' } | { kind: 'sent' } | { kind: 'failed'; message: string; retry: FeedbackPayload | null };

/**
 * The feedback form (SPEC §2 "Feedback"): checks in the browser with the API's own rules, shows
 * every problem in one banner, sends to POST /api/feedback, offers Try Again after a timeout or a
 * lost connection, and empties itself 3 s after a success. Uncontrolled fields keep what was typed
 * before hydration; a signed-in user's name and address are filled in.
 */
function FeedbackForm() {
  const [errors, setErrors] = useState<FeedbackErrors>({});
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const [messageLength, setMessageLength] = useState(0);
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    void loadSession().then((session) => {
      const form = formRef.current;
      if (session.status !== 'signed-in' || !form) return;
      for (const [field, value] of [
        ['name', session.user.full_name],
        ['email', session.user.email],
      ] as const) {
        const input = form.elements.namedItem(field);
        if (input instanceof HTMLInputElement && input.value === '') input.value = value;
      }
    });
    const message = formRef.current?.elements.namedItem('message');
    if (message instanceof HTMLTextAreaElement) setMessageLength(message.value.length);
  }, []);

  useResetAfter(status.kind === 'sent', RESET_AFTER_MS, () => {
    formRef.current?.reset();
    setMessageLength(0);
    setErrors({});
    setStatus({ kind: 'idle' });
  });

  const send = async (payload: FeedbackPayload) => {
    setStatus({ kind: 'sending' });
    const outcome = await submitFeedback(payload);
    switch (outcome.kind) {
      case 'sent':
        setStatus({ kind: 'sent' });
        showToast({
          title: FEEDBACK_TEXTS.submitted,
          description: 'Thank you for helping us improve Fieldmarket. We review all feedback within 48 hours.',
          variant: 'success',
        });
        return;
      case 'invalid':
        setStatus({ kind: 'idle' });
        setErrors(outcome.fields);
        return;
      case 'failed':
        setStatus({ kind: 'failed', message: outcome.message, retry: outcome.retry ? payload : null });
        showToast({ title: FEEDBACK_TEXTS.failedTitle, description: outcome.message, variant: 'destructive' });
        return;
    }
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status.kind === 'sending' || status.kind === 'sent') return;
    const values = readFormFields(event.currentTarget, FEEDBACK_FIELDS);
    const found = validateFeedbackForm(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setStatus({ kind: 'idle' });
      const first = FEEDBACK_FIELDS.find((field) => found[field]);
      const element = first && event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`);
      element?.focus();
      return;
    }
    void send(toPayload(values));
  };

  const retry = (payload: FeedbackPayload | null) => {
    if (payload) void send(payload);
  };

  const invalid = (field: FeedbackField) => (errors[field] ? true : undefined);
  const banner = bannerText(errors);
  const busy = status.kind === 'sending';

  return (
    <form
      ref={formRef}
      className="feedback-form"
      aria-label="Feedback form"
      aria-busy={busy}
      noValidate
      onSubmit={onSubmit}
      data-testid="feedback-form"
    >
      <div role="alert" className="feedback-form__status">
        {banner && (
          <p className="alert alert--danger" data-testid="feedback-errors">
            {banner}
          </p>
        )}
        {status.kind === 'failed' && (
          <div className="alert alert--danger feedback-form__failure" data-testid="feedback-failure">
            <p>{status.message}</p>
            {status.retry && (
              <button type="button" className="btn btn--small btn--outline" onClick={() => retry(status.retry)}>
                Try Again
              </button>
            )}
          </div>
        )}
      </div>
      <div role="status" className="feedback-form__status">
        {status.kind === 'sent' && (
          <p className="alert alert--success" data-testid="feedback-success">
            Thank you! Your feedback has been sent. We review all feedback within 48 hours.
          </p>
        )}
      </div>

      <div className="feedback-form__row">
        <div className="field">
          <label className="field__label" htmlFor="feedback-name">
            Name
          </label>
          <input
            id="feedback-name"
            name="name"
            className="field__input"
            autoComplete="name"
            placeholder="Your name"
            aria-invalid={invalid('name')}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor="feedback-email">
            Email
          </label>
          <input
            id="feedback-email"
            name="email"
            type="email"
            className="field__input"
            autoComplete="email"
            placeholder="you@example.com"
            aria-invalid={invalid('email')}
          />
        </div>
      </div>

      <div className="field">
        <label className="field__label" htmlFor="feedback-category">
          Category
        </label>
        <select id="feedback-category" name="category" className="field__input" defaultValue="" aria-invalid={invalid('category')}>
          <option value="" disabled>
            Select a category
          </option>
          {FEEDBACK_CATEGORIES.map((category) => (
            <option key={category.value} value={category.value}>
              {category.label}
            </option>
          ))}
        </select>
      </div>

      <fieldset className="field feedback-rating" aria-invalid={invalid('rating')}>
        <legend className="field__label">Rating</legend>
        <div className="feedback-rating__options">
          {RATINGS.map((rating) => (
            <label key={rating} className="feedback-rating__option">
              <input type="radio" name="rating" value={rating} aria-label={`${rating} of 5: ${RATING_WORDS[rating]}`} />
              <span aria-hidden="true">{rating}</span>
            </label>
          ))}
        </div>
        <p className="feedback-rating__scale" aria-hidden="true">
          <span>Poor</span>
          <span>Excellent</span>
        </p>
      </fieldset>

      <div className="field">
        <label className="field__label" htmlFor="feedback-message">
          Message
        </label>
        <textarea
          id="feedback-message"
          name="message"
          className="field__input"
          rows={6}
          maxLength={MESSAGE_MAX}
          placeholder="Tell us what works, what doesn't, or what you would like to see."
          aria-invalid={invalid('message')}
          aria-describedby="feedback-message-counter"
          onInput={(event) => setMessageLength(event.currentTarget.value.length)}
        />
        <p className="feedback-form__counter" id="feedback-message-counter" data-testid="feedback-counter">
          {counterText(messageLength, MESSAGE_MAX)}
        </p>
      </div>

      <button type="submit" className="btn btn--block" disabled={!hydrated || busy || status.kind === 'sent'}>
        {busy ? 'Sending...' : 'Submit Feedback'}
      </button>
    </form>
  );
}

export default withErrorBoundary(FeedbackForm);
