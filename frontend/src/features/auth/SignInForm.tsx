import { useEffect, useState, type SubmitEvent } from 'react';
import { ACCOUNT_TEXTS, GOOGLE_SIGN_IN_ERRORS } from '@contracts/account';
import { afterSignInPath } from '../../lib/redirect';
import { AFTER_SIGN_IN_DEFAULT } from '../../lib/routes';
import { formAlert } from '../../lib/api-result';
import { useHydrated } from '../../lib/use-hydrated';
import { loadSession, setSignedIn, type SignedInUser } from '../../stores/session';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { authProviders, googleOption, googleSignInHref, signIn, type GoogleOption } from './auth-api';
import { validateSignIn, type Errors, type SignInField } from './auth-validation';
import { FormMessage, PasswordField, TextField, useCheckedForm } from './form-parts';
import { TwoFactorDialog } from './TwoFactorDialog';
import './auth.css';

const FIELDS: readonly SignInField[] = ['email', 'password'];

function destination(): string {
  const path = afterSignInPath(window.location.search, AFTER_SIGN_IN_DEFAULT);
  // A page that needs an account sends a visitor here with a 302, and the browser keeps the page's
  // #fragment (a profile tab) on this URL: carry it back.
  const fragment = new URLSearchParams(window.location.search).has('redirect') && !path.includes('#') ? window.location.hash : '';
  return path + fragment;
}

/** Leaves the sign-in page for good: replacing it, so Back does not return to a form already done. */
function leave(): void {
  window.location.replace(destination());
}

/**
 * /signin (SPEC §2): e-mail and password, Continue with Google when the server has it configured,
 * the two-factor step when the account asks for it. A signed-in visitor is sent on at once.
 */
function SignInForm({ google: googleOnServer }: { google?: GoogleOption | undefined }) {
  const hydrated = useHydrated();
  const { formRef, errors, setErrors, check } = useCheckedForm(FIELDS, validateSignIn);
  const [alert, setAlert] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Unknown until /api/auth/providers answers (and when it cannot be reached): no Google button then.
  // The page says whether Google is available when the server rendered it, so the form does not move down
  // when the button appears; asked here only when the page could not tell.
  const [google, setGoogle] = useState<'unknown' | GoogleOption>(googleOnServer ?? 'unknown');
  const [twoFactor, setTwoFactor] = useState(false);
  const [redirect, setRedirect] = useState(AFTER_SIGN_IN_DEFAULT);

  useEffect(() => {
    // The account mails' "Forgotten your password?" link is /signin?reset=1.
    if (new URLSearchParams(window.location.search).has('reset')) {
      window.location.replace('/forgot-password');
      return;
    }
    setRedirect(destination());
    const code = new URLSearchParams(window.location.search).get('error');
    if (code && code in GOOGLE_SIGN_IN_ERRORS) setAlert(GOOGLE_SIGN_IN_ERRORS[code as keyof typeof GOOGLE_SIGN_IN_ERRORS]);
    // Already signed in: on at once. A Google sign-in that awaits its second factor lands here too.
    void loadSession({ always: true }).then((state) => {
      if (state.status === 'signed-in') leave();
      else if (state.status === 'visitor' && state.twoFactorPending) setTwoFactor(true);
    });
    if (!googleOnServer)
      void authProviders().then((result) => {
        if (result.ok) setGoogle(googleOption(result.data));
      });
  }, [googleOnServer]);

  const signedIn = (user: SignedInUser | undefined) => {
    if (user) setSignedIn(user);
    leave();
  };

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setAlert(null);
    const values = check(event.currentTarget);
    if (!values) return;
    setBusy(true);
    const result = await signIn({ email: values.email.trim().toLowerCase(), password: values.password });
    setBusy(false);
    if (!result.ok) {
      setErrors(result.fields as Errors<SignInField>);
      setAlert(formAlert(result, FIELDS));
      return;
    }
    if (result.data.status === 'two-factor-required') setTwoFactor(true);
    else signedIn(result.data.user);
  };

  return (
    <>
      <FormMessage error={alert} testId="signin" />
      {google === 'available' && (
        <>
          <a className="btn btn--outline btn--block" href={googleSignInHref(`/signin?redirect=${encodeURIComponent(redirect)}`)}>
            <GoogleMark />
            Continue with Google
          </a>
          <p className="auth-divider">or sign in with your e-mail</p>
        </>
      )}
      {google === 'not-configured' && (
        <>
          {/* The server has no Google client: the button stays, saying why it cannot be used (issue 7 §3). */}
          <button type="button" className="btn btn--outline btn--block" disabled aria-describedby="google-not-configured">
            <GoogleMark />
            Continue with Google
          </button>
          <p id="google-not-configured" className="field__hint" data-testid="google-not-configured">
            {ACCOUNT_TEXTS.googleNotConfigured}
          </p>
          <p className="auth-divider">or sign in with your e-mail</p>
        </>
      )}
      <form ref={formRef} className="auth-form" aria-label="Sign in" noValidate onSubmit={onSubmit} aria-busy={busy}>
        <TextField
          id="signin-email"
          name="email"
          label="Email"
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          error={errors.email}
        />
        <PasswordField
          id="signin-password"
          name="password"
          label="Password"
          autoComplete="current-password"
          required
          error={errors.password}
        />
        <p className="auth-form__aside">
          <a href="/forgot-password">Forgot your password?</a>
        </p>
        <button type="submit" className="btn btn--block" disabled={!hydrated || busy}>
          {busy ? 'Signing in...' : 'Sign In'}
        </button>
      </form>
      {twoFactor && (
        <TwoFactorDialog
          onSignedIn={signedIn}
          onEnded={(message) => {
            setTwoFactor(false);
            setAlert(message);
          }}
        />
      )}
    </>
  );
}

/** Google's "G", in its colours. */
function GoogleMark() {
  return (
    <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true">
      <path fill="#4285F4" d="M23.5 12.3c0-.8-.1-1.6-.2-2.3H12v4.4h6.5a5.6 5.6 0 0 1-2.4 3.6v3h3.9c2.2-2.1 3.5-5.1 3.5-8.7z" />
      <path fill="#34A853" d="M12 24c3.2 0 6-1.1 8-2.9l-3.9-3c-1.1.7-2.5 1.2-4.1 1.2-3.1 0-5.8-2.1-6.7-5H1.3v3.1A12 12 0 0 0 12 24z" />
      <path fill="#FBBC05" d="M5.3 14.3a7.2 7.2 0 0 1 0-4.6V6.6H1.3a12 12 0 0 0 0 10.8l4-3.1z" />
      <path fill="#EA4335" d="M12 4.8c1.8 0 3.3.6 4.6 1.8l3.4-3.4A12 12 0 0 0 1.3 6.6l4 3.1c.9-2.9 3.6-4.9 6.7-4.9z" />
    </svg>
  );
}

export default withErrorBoundary(SignInForm);
