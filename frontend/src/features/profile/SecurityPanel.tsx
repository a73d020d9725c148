import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import {
  ACCOUNT_TEXTS,
  isCompleteCode,
  isRecoveryCode,
  normaliseCode,
  normaliseRecoveryCode,
  validateNewPassword,
} from '../auth/auth-validation';
import { formAlert } from '../../lib/api-result';
import { NewPasswordFields, PasswordField } from '../auth/form-parts';
import { Modal } from '../auth/Modal';
import {
  changePassword,
  disableTwoFactor,
  endOtherSessions,
  endSession,
  listSessions,
  setupTwoFactor,
  twoFactorStatus,
  verifyTwoFactor,
  type Profile,
  type SessionInfo,
  type TwoFactorSetup,
} from './profile-api';
import { describeUserAgent, recoveryCodesText } from './profile-logic';
import type { Notify } from './notice';

interface PanelProps {
  profile: Profile;
  onChanged: () => Promise<void> | void;
  notify: Notify;
}

/** Security: password, two-factor authentication, and where the account is signed in. */
export function SecurityPanel({ profile, onChanged, notify }: PanelProps) {
  return (
    <div className="profile-stack">
      {profile.provider === 'password' && <ChangePassword notify={notify} />}
      {profile.provider === 'google' ? (
        <section className="card" aria-labelledby="google-security">
          <h2 id="google-security">Google Account Security</h2>
          <p>
            You sign in with Google, so Google protects your account: turn on 2-Step Verification in your Google Account.{' '}
            {ACCOUNT_TEXTS.twoFactorNotForGoogle}.
          </p>
        </section>
      ) : (
        <TwoFactorCard profile={profile} onChanged={onChanged} notify={notify} />
      )}
      <Sessions notify={notify} />
    </div>
  );
}

function ChangePassword({ notify }: { notify: Notify }) {
  const formRef = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<{ current?: string; password?: string; confirmPassword?: string }>({});
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const data = new FormData(form);
    const current = String(data.get('current_password') ?? '');
    const values = { password: String(data.get('password') ?? ''), confirmPassword: String(data.get('confirmPassword') ?? '') };
    const found = { ...(current ? {} : { current: 'Current password is required' }), ...validateNewPassword(values, 'New password') };
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const first = found.current ? 'current_password' : found.password ? 'password' : 'confirmPassword';
      (form.elements.namedItem(first) as HTMLElement | null)?.focus();
      return;
    }
    setBusy(true);
    const result = await changePassword({ current_password: current, new_password: values.password });
    setBusy(false);
    if (result.ok) {
      form.reset();
      notify({ kind: 'success', text: result.data.message });
      return;
    }
    setErrors({ current: result.fields['current_password'], password: result.fields['new_password'] });
    const alert = formAlert(result, ['current_password', 'new_password']);
    if (alert) notify({ kind: 'error', text: alert });
  };

  return (
    <section className="card" aria-labelledby="change-password">
      <h2 id="change-password">Change Password</h2>
      <p className="profile-note">Changing your password signs you out everywhere else.</p>
      <form ref={formRef} noValidate onSubmit={onSubmit} aria-label="Change password" aria-busy={busy}>
        <PasswordField
          id="current-password"
          name="current_password"
          label="Current password"
          autoComplete="current-password"
          error={errors.current}
        />
        <NewPasswordFields idPrefix="new" errors={errors} />
        <button type="submit" className="btn" disabled={busy}>
          {busy ? 'Saving...' : 'Change Password'}
        </button>
      </form>
    </section>
  );
}

type TwoFactorStep =
  { kind: 'closed' } | { kind: 'setup'; setup: TwoFactorSetup } | { kind: 'codes'; codes: string[] } | { kind: 'disable' };

function TwoFactorCard({ profile, onChanged, notify }: PanelProps) {
  const [step, setStep] = useState<TwoFactorStep>({ kind: 'closed' });
  const [codesLeft, setCodesLeft] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const enabled = profile.two_factor_enabled;

  useEffect(() => {
    if (!enabled) return;
    void twoFactorStatus().then((result) => setCodesLeft(result.ok ? result.data.recovery_codes_left : null));
  }, [enabled]);

  const startSetup = async () => {
    setBusy(true);
    const result = await setupTwoFactor();
    setBusy(false);
    if (result.ok) setStep({ kind: 'setup', setup: result.data });
    else notify({ kind: 'error', text: result.error });
  };

  return (
    <section className="card" aria-labelledby="two-factor">
      <div className="card__header">
        <h2 id="two-factor">Two-Factor Authentication</h2>
        <span className={`badge ${enabled ? 'badge--success' : ''}`} data-testid="two-factor-state">
          {enabled ? 'Enabled' : 'Disabled'}
        </span>
      </div>
      <p>
        {enabled
          ? 'Signing in asks for a code from your authenticator app after your password.'
          : 'Add a second step to signing in: a code from an authenticator app on your phone.'}
      </p>
      {enabled && codesLeft !== null && <p className="profile-note">Recovery codes left: {codesLeft} of 10.</p>}
      {enabled ? (
        <button type="button" className="btn btn--outline" onClick={() => setStep({ kind: 'disable' })}>
          Disable 2FA
        </button>
      ) : (
        <button type="button" className="btn" onClick={() => void startSetup()} disabled={busy}>
          {busy ? 'Preparing...' : 'Enable 2FA'}
        </button>
      )}

      {step.kind === 'setup' && (
        <SetupModal
          setup={step.setup}
          onClose={() => setStep({ kind: 'closed' })}
          onEnabled={(codes) => {
            setStep({ kind: 'codes', codes });
            notify({ kind: 'success', text: 'Two-factor authentication enabled successfully!' });
          }}
        />
      )}
      {step.kind === 'codes' && (
        <RecoveryCodesModal
          codes={step.codes}
          email={profile.email}
          onClose={() => {
            setStep({ kind: 'closed' });
            void onChanged();
          }}
        />
      )}
      {step.kind === 'disable' && (
        <DisableModal
          onClose={() => setStep({ kind: 'closed' })}
          onDisabled={() => {
            setStep({ kind: 'closed' });
            notify({ kind: 'success', text: 'Two-factor authentication disabled successfully!' });
            void onChanged();
          }}
        />
      )}
    </section>
  );
}

/** Setup Two-Factor Authentication: QR image, manual entry code, Verification Code, Cancel, Verify & Enable. */
function SetupModal({ setup, onClose, onEnabled }: { setup: TwoFactorSetup; onClose: () => void; onEnabled: (codes: string[]) => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!isCompleteCode(code)) {
      setError(ACCOUNT_TEXTS.codeFormat);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await verifyTwoFactor(code);
    setBusy(false);
    if (result.ok) onEnabled(result.data.recovery_codes);
    else {
      setError(result.fields['token'] ?? result.error);
      setCode('');
    }
  };

  return (
    <Modal title="Setup Two-Factor Authentication" onClose={onClose} testId="two-factor-setup">
      <p>Scan this QR code with an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password...).</p>
      <img className="setup-qr" src={setup.qrCode} alt="QR code for your authenticator app" width={180} height={180} />
      <p className="setup-manual">
        Or enter this code by hand:
        <code data-testid="two-factor-secret">{setup.secret}</code>
      </p>
      <form noValidate onSubmit={onSubmit} aria-label="Verify and enable two-factor authentication">
        <div className="field">
          <label className="field__label" htmlFor="setup-code">
            Verification Code
          </label>
          <input
            id="setup-code"
            name="code"
            className="field__input code-input"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder="000000"
            value={code}
            onChange={(event) => setCode(normaliseCode(event.currentTarget.value))}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'setup-code-error' : undefined}
          />
        </div>
        <div role="alert" id="setup-code-error" className="form-message">
          {error && <p className="alert alert--danger">{error}</p>}
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn" disabled={busy || !isCompleteCode(code)}>
            {busy ? 'Verifying...' : 'Verify & Enable'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function RecoveryCodesModal({ codes, email, onClose }: { codes: string[]; email: string; onClose: () => void }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([recoveryCodesText(codes, email)], { type: 'text/plain' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: 'fieldmarket-recovery-codes.txt' });
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Modal title="Save your recovery codes" onClose={onClose} testId="recovery-codes">
      <p>
        Two-factor authentication is on. If you lose your phone, each of these codes signs you in once. They are shown only now: keep them
        somewhere safe.
      </p>
      <ul className="recovery-codes" data-testid="recovery-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="modal__actions">
        <button type="button" className="btn btn--outline" onClick={download}>
          Download
        </button>
        <button type="button" className="btn" onClick={onClose}>
          I have saved them
        </button>
      </div>
    </Modal>
  );
}

/** Disable Two-Factor Authentication: a warning, a code (or a recovery code), Cancel, Disable 2FA. */
function DisableModal({ onClose, onDisabled }: { onClose: () => void; onDisabled: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const complete = recovery ? isRecoveryCode(code) : isCompleteCode(code);

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (!complete) {
      setError(ACCOUNT_TEXTS.codeFormat);
      return;
    }
    setBusy(true);
    setError(null);
    const result = await disableTwoFactor(recovery ? { recovery_code: code } : { token: code });
    setBusy(false);
    if (result.ok) onDisabled();
    else {
      setError(result.fields['token'] ?? result.fields['recovery_code'] ?? result.error);
      setCode('');
    }
  };

  return (
    <Modal title="Disable Two-Factor Authentication" onClose={onClose} testId="two-factor-disable">
      <p className="alert alert--warning">Without two-factor authentication, your password alone signs in to your account.</p>
      <form noValidate onSubmit={onSubmit} aria-label="Disable two-factor authentication">
        <div className="field">
          <label className="field__label" htmlFor="disable-code">
            {recovery ? 'Recovery code' : 'Verification Code'}
          </label>
          <input
            id="disable-code"
            name="code"
            className="field__input code-input"
            inputMode={recovery ? 'text' : 'numeric'}
            autoComplete="one-time-code"
            maxLength={recovery ? 11 : 6}
            placeholder={recovery ? 'ABCDE-12345' : '000000'}
            value={code}
            onChange={(event) => {
              const raw = event.currentTarget.value;
              setCode(recovery ? normaliseRecoveryCode(raw).slice(0, 11) : normaliseCode(raw));
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'disable-code-error' : undefined}
          />
        </div>
        <div role="alert" id="disable-code-error" className="form-message">
          {error && <p className="alert alert--danger">{error}</p>}
        </div>
        <p>
          <button
            type="button"
            className="link-button"
            onClick={() => {
              setRecovery((current) => !current);
              setCode('');
              setError(null);
            }}
          >
            {recovery ? 'Use the code from my app' : 'Use a recovery code instead'}
          </button>
        </p>
        <div className="modal__actions">
          <button type="button" className="btn btn--outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--danger" disabled={busy || !complete}>
            {busy ? 'Disabling...' : 'Disable 2FA'}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function Sessions({ notify }: { notify: Notify }) {
  const [sessions, setSessions] = useState<SessionInfo[] | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    const result = await listSessions();
    if (result.ok) setSessions(result.data);
    else notify({ kind: 'error', text: result.error });
  };

  useEffect(() => {
    void load();
  }, []);

  const signOutOthers = async () => {
    setBusy(true);
    const result = await endOtherSessions();
    setBusy(false);
    notify(result.ok ? { kind: 'success', text: 'Signed out of every other session.' } : { kind: 'error', text: result.error });
    await load();
  };

  const signOutOne = async (id: string) => {
    const result = await endSession(id);
    notify(result.ok ? { kind: 'success', text: 'That session is signed out.' } : { kind: 'error', text: result.error });
    await load();
  };

  const others = sessions?.filter((session) => !session.current) ?? [];
  return (
    <section className="card" aria-labelledby="active-sessions">
      <h2 id="active-sessions">Active Sessions</h2>
      {sessions === null ? (
        <p role="status">Loading sessions...</p>
      ) : (
        <ul className="sessions" data-testid="sessions">
          {sessions.map((session) => (
            <li key={session.id} className="sessions__item">
              <div>
                <strong>{describeUserAgent(session.user_agent)}</strong>
                {session.current && <span className="badge badge--success">This device</span>}
                <p className="profile-note">
                  Network {session.network} · last active{' '}
                  {new Date(session.last_seen_at).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short' })}
                </p>
              </div>
              {!session.current && (
                <button type="button" className="btn btn--outline btn--small" onClick={() => void signOutOne(session.id)}>
                  Sign out<span className="visually-hidden"> {describeUserAgent(session.user_agent)}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="btn btn--outline" onClick={() => void signOutOthers()} disabled={busy || others.length === 0}>
        Sign out all other sessions
      </button>
    </section>
  );
}
