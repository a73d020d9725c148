import { useRef, useState, type SubmitEvent } from 'react';
import { answerTwoFactor, cancelTwoFactor } from './auth-api';
import { ACCOUNT_TEXTS, isCompleteCode, isRecoveryCode, normaliseCode, normaliseRecoveryCode } from './auth-validation';
import type { SignedInUser } from '../../stores/session';
import { Modal } from './Modal';

interface TwoFactorDialogProps {
  onSignedIn: (user: SignedInUser | undefined) => void;
  /** Cancelled, or the challenge is over (expired, too many tries): the message to show. */
  onEnded: (message: string) => void;
}

/**
 * The two-factor step of signing in (SPEC §2 "Two-factor login overlay"): a 6-digit code from the
 * authenticator app, or one of the recovery codes. Cancel and close skip the challenge, which
 * leaves the browser signed out with '2FA verification required for login'.
 */
export function TwoFactorDialog({ onSignedIn, onEnded }: TwoFactorDialogProps) {
  const [mode, setMode] = useState<'code' | 'recovery'>('code');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const complete = mode === 'code' ? isCompleteCode(code) : isRecoveryCode(code);

  const cancel = async () => {
    if (busy) return;
    await cancelTwoFactor();
    onEnded(ACCOUNT_TEXTS.twoFactorRequired);
  };

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!complete) {
      setError(mode === 'code' ? ACCOUNT_TEXTS.codeFormat : 'Please enter a recovery code like ABCDE-12345');
      inputRef.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    const result = await answerTwoFactor(mode === 'code' ? { token: code } : { recovery_code: code });
    setBusy(false);
    if (result.ok) {
      onSignedIn(result.data.user);
      return;
    }
    // 401: no challenge any more (expired); 429: too many wrong codes. Either way, sign in again.
    if (result.status === 401 || result.status === 429) {
      onEnded(result.error);
      return;
    }
    setError(result.fields['token'] ?? result.fields['recovery_code'] ?? result.error ?? ACCOUNT_TEXTS.invalidCode);
    setCode('');
    inputRef.current?.focus();
  };

  const switchMode = () => {
    setMode((current) => (current === 'code' ? 'recovery' : 'code'));
    setCode('');
    setError(null);
    inputRef.current?.focus();
  };

  return (
    <Modal title="Verification Required" onClose={() => void cancel()} testId="two-factor-dialog" describedBy="two-factor-intro">
      <p id="two-factor-intro">
        {mode === 'code'
          ? 'Please enter the 6-digit code from your authenticator app to complete login.'
          : 'Enter one of the recovery codes you saved when you turned on two-factor authentication. Each works once.'}
      </p>
      <form noValidate onSubmit={onSubmit} aria-label="Two-factor verification">
        <div className="field">
          <label className="field__label" htmlFor="two-factor-code">
            {mode === 'code' ? 'Verification code' : 'Recovery code'}
          </label>
          <input
            ref={inputRef}
            id="two-factor-code"
            name="code"
            className="field__input code-input"
            autoFocus
            value={code}
            onChange={(event) => {
              const raw = event.currentTarget.value;
              setCode(mode === 'code' ? normaliseCode(raw) : normaliseRecoveryCode(raw).slice(0, 11));
            }}
            inputMode={mode === 'code' ? 'numeric' : 'text'}
            autoComplete="one-time-code"
            maxLength={mode === 'code' ? 6 : 11}
            placeholder={mode === 'code' ? '000000' : 'ABCDE-12345'}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'two-factor-error' : undefined}
          />
        </div>
        <div role="alert" id="two-factor-error" className="form-message">
          {error && <p className="alert alert--danger">{error}</p>}
        </div>
        <p>
          <button type="button" className="link-button" onClick={switchMode}>
            {mode === 'code' ? 'Use a recovery code instead' : 'Use the code from my app'}
          </button>
        </p>
        <div className="modal__actions">
          <button type="button" className="btn btn--outline" onClick={() => void cancel()} disabled={busy}>
            Cancel
          </button>
          <button type="submit" className="btn" disabled={busy || !complete}>
            {busy ? 'Verifying...' : 'Verify'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
