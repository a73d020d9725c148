import { useRef, useState, type SubmitEvent } from 'react';
import { SIGN_IN_RULES } from '@contracts/account';
import { textFieldError, trimText } from '@contracts/text-rules';
import { useHydrated } from '../../lib/use-hydrated';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { requestPasswordReset } from './auth-api';
import { FormMessage, TextField } from './form-parts';
import './auth.css';

/** /forgot-password: asks for a reset link; the answer is the same whether or not the address has an account. */
function ForgotPasswordForm() {
  const hydrated = useHydrated();
  const inputRef = useRef<HTMLInputElement>(null);
  const [error, setError] = useState<string | undefined>();
  const [alert, setAlert] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const email = String(trimText(new FormData(event.currentTarget).get('email') ?? '', SIGN_IN_RULES.email));
    const problem = textFieldError(SIGN_IN_RULES.email, email);
    setError(problem);
    setAlert(null);
    if (problem) {
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    const result = await requestPasswordReset(email);
    setBusy(false);
    if (result.ok) setSent(result.data.message);
    else {
      setError(result.fields['email']);
      setAlert(result.error);
    }
  };

  if (sent) {
    return (
      <div role="status" data-testid="forgot-done">
        <p className="alert alert--success">{sent}</p>
        <a className="btn btn--outline btn--block" href="/signin">
          Back to Sign In
        </a>
      </div>
    );
  }

  return (
    <form className="auth-form" aria-label="Reset your password" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <FormMessage error={alert} />
      <TextField
        id="forgot-email"
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        inputRef={inputRef}
        error={error}
      />
      <button type="submit" className="btn btn--block" disabled={!hydrated || busy}>
        {busy ? 'Sending...' : 'Send Reset Link'}
      </button>
    </form>
  );
}

export default withErrorBoundary(ForgotPasswordForm);
