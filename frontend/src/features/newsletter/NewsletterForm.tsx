import { useId, type SubmitEvent } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';

/** The footer's "Stay Updated" box. No newsletter service exists yet, so Subscribe says so. */
function NewsletterForm() {
  const hydrated = useHydrated();
  const inputId = useId();

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    showToast({ title: 'Newsletter sign-up is coming soon.', variant: 'info' });
  };

  return (
    <form className="newsletter-form" onSubmit={onSubmit} noValidate>
      <label htmlFor={inputId} className="visually-hidden">
        Email address
      </label>
      <input id={inputId} className="field__input" type="email" name="email" autoComplete="email" placeholder="you@example.com" />
      <button type="submit" className="btn btn--secondary" disabled={!hydrated}>
        Subscribe
      </button>
    </form>
  );
}

export default withErrorBoundary(NewsletterForm);
