import { useEffect, useState, type SubmitEvent } from 'react';
import { formAlert } from '../../lib/api-result';
import { useHydrated } from '../../lib/use-hydrated';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { checkPasswordResetLink, completePasswordReset } from './auth-api';
import { ACCOUNT_TEXTS, validateNewPassword, type NewPasswordField } from './auth-validation';
import { FormMessage, NewPasswordFields, useCheckedForm } from './form-parts';
import './auth.css';

const FIELDS: readonly NewPasswordField[] = ['password', 'confirmPassword'];
const TOKEN_PATTERN = /^[\w-]{10,100}$/;

type State = { kind: 'loading' } | { kind: 'invalid' } | { kind: 'form'; token: string } | { kind: 'done'; message: string };

/**
 * /reset-password?token=…: the link from the reset mail (SPEC §2 "reset"): new password and
 * confirmation, a success screen with Sign In, an invalid-link state.
 */
function ResetPasswordForm() {
  const hydrated = useHydrated();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const { formRef, errors, setErrors, check } = useCheckedForm(FIELDS, (values) => validateNewPassword(values, 'Password'));
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // A used or expired link says so at once, not after a new password is typed. Only a refusal counts:
  // when the check cannot reach the server, the form is shown and the reset itself decides.
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    if (!TOKEN_PATTERN.test(token)) {
      setState({ kind: 'invalid' });
      return;
    }
    void checkPasswordResetLink(token).then((result) =>
      setState(!result.ok && result.status === 400 ? { kind: 'invalid' } : { kind: 'form', token }),
    );
  }, []);

  if (state.kind === 'loading') return <p className="auth-card__intro">Loading...</p>;
  if (state.kind === 'invalid') {
    return (
      <div role="alert" data-testid="reset-invalid">
        <p className="alert alert--danger">{ACCOUNT_TEXTS.invalidResetLink}</p>
        <a className="btn btn--block" href="/forgot-password">
          Request a new link
        </a>
      </div>
    );
  }
  if (state.kind === 'done') {
    return (
      <div role="status" data-testid="reset-done">
        <p className="alert alert--success">{state.message}</p>
        <a className="btn btn--block" href="/signin">
          Sign In
        </a>
      </div>
    );
  }

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAlert(null);
    const values = check(event.currentTarget);
    if (!values) return;
    setBusy(true);
    const result = await completePasswordReset(state.token, values.password);
    setBusy(false);
    if (result.ok) {
      setState({ kind: 'done', message: result.data.message });
      return;
    }
    if (result.status === 400 && !result.fields['password']) {
      setState({ kind: 'invalid' });
      return;
    }
    setErrors({ password: result.fields['password'] });
    setAlert(formAlert(result, FIELDS));
  };

  return (
    <form ref={formRef} className="auth-form" aria-label="Choose a new password" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <FormMessage error={alert} />
      <NewPasswordFields idPrefix="reset" errors={errors} />
      <button type="submit" className="btn btn--block" disabled={!hydrated || busy}>
        {busy ? 'Saving...' : 'Reset Password'}
      </button>
    </form>
  );
}

export default withErrorBoundary(ResetPasswordForm);
