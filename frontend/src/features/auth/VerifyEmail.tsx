import { useEffect, useState } from 'react';
import { hasSignedInHint } from '../../lib/api';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { verifyEmail } from './auth-api';
import { ACCOUNT_TEXTS } from './auth-validation';
import './auth.css';

type State = { kind: 'checking' } | { kind: 'confirmed'; message: string } | { kind: 'failed'; message: string };

/**
 * /verify-email?token=…: the link from the welcome mail. The token is POSTed (a GET that changes
 * state would be confirmed by any link scanner that opens mail links).
 */
function VerifyEmail() {
  const [state, setState] = useState<State>({ kind: 'checking' });
  const [signedIn, setSignedInHint] = useState(false);

  useEffect(() => {
    setSignedInHint(hasSignedInHint(document.cookie));
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    if (!/^[\w-]{10,100}$/.test(token)) {
      setState({ kind: 'failed', message: ACCOUNT_TEXTS.verificationLinkInvalid });
      return;
    }
    void verifyEmail(token).then((result) =>
      setState(
        result.ok
          ? { kind: 'confirmed', message: result.data.message }
          : { kind: 'failed', message: result.status === 400 ? ACCOUNT_TEXTS.verificationLinkInvalid : result.error },
      ),
    );
  }, []);

  if (state.kind === 'checking') {
    return (
      <p role="status" aria-busy="true">
        Confirming your e-mail address...
      </p>
    );
  }
  const next = signedIn ? { href: '/profile', label: 'Go to your profile' } : { href: '/signin', label: 'Sign In' };
  return (
    <div role={state.kind === 'confirmed' ? 'status' : 'alert'} data-testid={`verify-${state.kind}`}>
      <p className={`alert ${state.kind === 'confirmed' ? 'alert--success' : 'alert--danger'}`}>{state.message}</p>
      <a className="btn btn--block" href={next.href}>
        {next.label}
      </a>
    </div>
  );
}

export default withErrorBoundary(VerifyEmail);
