import { useState, type SubmitEvent } from 'react';
import { formAlert } from '../../lib/api-result';
import { useHydrated } from '../../lib/use-hydrated';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { signUp } from './auth-api';
import { ACCOUNT_TEXTS, signUpPayload, validateSignUp, type Errors, type SignUpField } from './auth-validation';
import { FormMessage, NewPasswordFields, TextField, focusFirstError, useCheckedForm } from './form-parts';
import './auth.css';

const FIELDS: readonly SignUpField[] = ['name', 'email', 'location', 'password', 'confirmPassword'];

/**
 * /signup: name, e-mail, optional location, password and confirmation (SPEC §2, §5). The API answers
 * the same for a new and a taken address, so success always ends in "check your e-mail".
 */
function SignUpForm() {
  const hydrated = useHydrated();
  const { formRef, errors, setErrors, check } = useCheckedForm(FIELDS, validateSignUp);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAlert(null);
    const values = check(event.currentTarget);
    if (!values) return;
    setBusy(true);
    const payload = signUpPayload(values);
    const result = await signUp(payload);
    setBusy(false);
    if (result.ok) {
      setSentTo(payload.email);
      return;
    }
    // The server is the authority (a common password, a taken limit): keep what was typed.
    setErrors(result.fields as Errors<SignUpField>);
    setAlert(formAlert(result, FIELDS));
    focusFirstError(formRef.current, FIELDS, result.fields as Errors<SignUpField>);
  };

  if (sentTo) {
    return (
      <div className="auth-done" role="status" data-testid="signup-done">
        <h2>Check your e-mail</h2>
        <p className="alert alert--success">{ACCOUNT_TEXTS.signUpSuccess}</p>
        <p>
          We sent a confirmation link to <strong>{sentTo}</strong>. It works once, within 48 hours. You can sign in and manage your profile
          meanwhile.
        </p>
        <a className="btn btn--block" href="/signin">
          Sign In
        </a>
      </div>
    );
  }

  return (
    <form ref={formRef} className="auth-form" aria-label="Sign up" noValidate onSubmit={onSubmit} aria-busy={busy}>
      <FormMessage error={alert} testId="signup" />
      <TextField id="signup-name" name="name" label="Name" autoComplete="name" required maxLength={100} error={errors.name} />
      <TextField
        id="signup-email"
        name="email"
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        maxLength={254}
        error={errors.email}
      />
      <TextField
        id="signup-location"
        name="location"
        label="Location (optional)"
        autoComplete="address-level2"
        maxLength={100}
        placeholder="e.g. Taunton, Somerset"
        error={errors.location}
      />
      <NewPasswordFields idPrefix="signup" label="Password" errors={errors} />
      <button type="submit" className="btn btn--block" disabled={!hydrated || busy}>
        {busy ? 'Creating account...' : 'Create Account'}
      </button>
    </form>
  );
}

export default withErrorBoundary(SignUpForm);
