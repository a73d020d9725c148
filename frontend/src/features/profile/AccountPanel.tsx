import { useState, type SubmitEvent } from 'react';
import { formAlert } from '../../lib/api-result';
import { signOut } from '../../stores/session';
import { ACCOUNT_TEXTS } from '../auth/auth-validation';
import { PasswordField } from '../auth/form-parts';
import { Modal } from '../auth/Modal';
import { deleteAccount, exportData, type Profile } from './profile-api';
import { exportFileName } from './profile-logic';
import type { Notify } from './notice';

/** Account Actions: Export Data, Sign Out, Delete Account (SPEC §2 "Profile"). */
export function AccountPanel({ profile, notify }: { profile: Profile; notify: Notify }) {
  const [deleting, setDeleting] = useState(false);
  const [exporting, setExporting] = useState(false);

  const download = async () => {
    setExporting(true);
    const result = await exportData();
    setExporting(false);
    if (!result.ok) {
      notify({ kind: 'error', text: 'Failed to export data' });
      return;
    }
    const url = URL.createObjectURL(new Blob([JSON.stringify(result.data, null, 2)], { type: 'application/json' }));
    const link = Object.assign(document.createElement('a'), { href: url, download: exportFileName(new Date()) });
    document.body.append(link);
    link.click();
    link.remove();
    URL.revokeObjectURL(url);
    notify({ kind: 'success', text: 'Data exported successfully!' });
  };

  return (
    <div className="profile-stack">
      <section className="card" aria-labelledby="export-data">
        <h2 id="export-data">Download my data</h2>
        <p>A JSON file with everything Fieldmarket stores about you: profile, privacy settings, sessions and security facts.</p>
        <button type="button" className="btn btn--outline" onClick={() => void download()} disabled={exporting}>
          {exporting ? 'Preparing...' : 'Export Data'}
        </button>
      </section>

      <section className="card" aria-labelledby="account-actions">
        <h2 id="account-actions">Account Actions</h2>
        <div className="btn-row">
          <button type="button" className="btn btn--outline" onClick={() => void signOut().then(() => window.location.assign('/'))}>
            Sign Out
          </button>
          <button type="button" className="btn btn--danger" onClick={() => setDeleting(true)}>
            Delete Account
          </button>
        </div>
        <p className="profile-note">This action cannot be undone. All your data will be permanently deleted.</p>
      </section>

      {deleting && <DeleteModal profile={profile} onClose={() => setDeleting(false)} />}
    </div>
  );
}

function DeleteModal({ profile, onClose }: { profile: Profile; onClose: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [fieldError, setFieldError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const google = profile.provider === 'google';

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const password = String(new FormData(event.currentTarget).get('password') ?? '');
    if (!google && !password) {
      setFieldError('Password is required');
      (event.currentTarget.elements.namedItem('password') as HTMLElement | null)?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    setFieldError(undefined);
    const result = await deleteAccount(password || undefined);
    setBusy(false);
    if (result.ok) {
      // The server has ended every session; the page leaves for the home page, signed out.
      window.location.replace('/?account=deleted');
      return;
    }
    setFieldError(result.fields['password']);
    setError(formAlert(result, google ? [] : ['password']));
  };

  return (
    <Modal title="Delete Account" onClose={onClose} testId="delete-account" describedBy="delete-warning">
      <p id="delete-warning" className="alert alert--danger">
        {ACCOUNT_TEXTS.deleteConfirm}
      </p>
      <form noValidate onSubmit={onSubmit} aria-label="Delete account" aria-busy={busy}>
        {google ? (
          <p>
            Confirm it is you with Google first, then delete within 5 minutes.{' '}
            <a href="/api/auth/google?intent=reauth">Confirm with Google</a>
          </p>
        ) : (
          <PasswordField id="delete-password" name="password" label="Your password" autoComplete="current-password" error={fieldError} />
        )}
        <div role="alert" className="form-message">
          {error && <p className="alert alert--danger">{error}</p>}
        </div>
        <div className="modal__actions">
          <button type="button" className="btn btn--outline" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="btn btn--danger" disabled={busy}>
            {busy ? 'Deleting...' : 'Delete my account'}
          </button>
        </div>
      </form>
    </Modal>
  );
}
