import { useState, type SubmitEvent } from 'react';
import { formAlert } from '../../lib/api-result';
import { useHydrated } from '../../lib/use-hydrated';
import { resendConfirmation, updateProfile, type Profile } from './profile-api';
import {
  memberSinceYear,
  PROFILE_FIELDS,
  profileUpdate,
  profileValues,
  validateProfile,
  type ProfileField,
  type ProfileValues,
} from './profile-logic';
import type { Notify } from './notice';

const LABELS: Record<ProfileField, { label: string; placeholder: string; empty: string; autoComplete?: string; type?: string }> = {
  full_name: { label: 'Full name', placeholder: 'Enter your full name', empty: 'Not set', autoComplete: 'name' },
  phone: { label: 'Phone', placeholder: 'Enter your phone number', empty: 'Not set', autoComplete: 'tel', type: 'tel' },
  location: { label: 'Location', placeholder: 'Enter your location', empty: 'Not set', autoComplete: 'address-level2' },
  bio: { label: 'Bio', placeholder: 'Tell us about yourself...', empty: 'No bio added yet' },
};

/** Account Information (view, then Edit with Save Changes / Cancel) and Account Statistics. */
export function ProfileDetails({ profile, onSaved, notify }: { profile: Profile; onSaved: (profile: Profile) => void; notify: Notify }) {
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<ProfileValues>(() => profileValues(profile));
  const [errors, setErrors] = useState<Partial<Record<ProfileField, string>>>({});
  const [busy, setBusy] = useState(false);
  const [resent, setResent] = useState(false);
  // The page is server-rendered with the profile in it: Edit and Resend wait for the island.
  const hydrated = useHydrated();

  const startEditing = () => {
    setValues(profileValues(profile));
    setErrors({});
    setEditing(true);
  };

  const cancel = () => {
    setValues(profileValues(profile));
    setErrors({});
    setEditing(false);
  };

  const onSubmit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateProfile(values);
    setErrors(found);
    const first = PROFILE_FIELDS.find((field) => found[field]);
    if (first) {
      document.getElementById(`profile-${first}`)?.focus();
      return;
    }
    setBusy(true);
    const result = await updateProfile(profileUpdate(values));
    setBusy(false);
    if (result.ok) {
      onSaved(result.data);
      setEditing(false);
      notify({ kind: 'success', text: 'Profile updated successfully!' });
      return;
    }
    // Stays in edit with everything typed (SPEC §4 "Profile").
    setErrors(result.fields as Partial<Record<ProfileField, string>>);
    const alert = formAlert(result, PROFILE_FIELDS);
    if (alert) notify({ kind: 'error', text: alert });
  };

  const resend = async () => {
    const result = await resendConfirmation();
    if (result.ok) setResent(true);
    notify(result.ok ? { kind: 'success', text: result.data.message } : { kind: 'error', text: result.error });
  };

  return (
    <div className="profile-grid">
      <section className="card" aria-labelledby="account-information">
        <div className="card__header">
          <h2 id="account-information">Account Information</h2>
          {!editing && (
            <button type="button" className="btn btn--outline btn--small" onClick={startEditing} disabled={!hydrated}>
              Edit
            </button>
          )}
        </div>
        <dl className="profile-facts">
          <div>
            <dt>Email</dt>
            <dd>
              {profile.email}{' '}
              {profile.email_confirmed ? (
                <span className="badge badge--success">Confirmed</span>
              ) : (
                <span className="badge badge--warning">Not confirmed</span>
              )}
            </dd>
          </div>
        </dl>
        {!profile.email_confirmed && (
          <p className="profile-note">
            Posting listings and messaging sellers need a confirmed address.{' '}
            <button type="button" className="link-button" onClick={() => void resend()} disabled={!hydrated || resent}>
              {resent ? 'Link sent' : 'Send the confirmation link again'}
            </button>
          </p>
        )}

        {editing ? (
          <form noValidate onSubmit={onSubmit} aria-label="Edit account information" aria-busy={busy}>
            {PROFILE_FIELDS.map((field) => {
              const config = LABELS[field];
              const id = `profile-${field}`;
              const common = {
                id,
                name: field,
                className: 'field__input',
                placeholder: config.placeholder,
                value: values[field],
                'aria-invalid': errors[field] ? true : undefined,
                'aria-describedby': errors[field] ? `${id}-error` : undefined,
                onChange: (event: { currentTarget: { value: string } }) => {
                  const value = event.currentTarget.value;
                  setValues((current) => ({ ...current, [field]: value }));
                },
              };
              return (
                <div className="field" key={field}>
                  <label className="field__label" htmlFor={id}>
                    {config.label}
                    {field === 'full_name' ? '' : ' (optional)'}
                  </label>
                  {field === 'bio' ? (
                    <textarea {...common} rows={3} />
                  ) : (
                    <input {...common} type={config.type ?? 'text'} autoComplete={config.autoComplete} />
                  )}
                  {errors[field] && (
                    <p className="field__error" id={`${id}-error`}>
                      {errors[field]}
                    </p>
                  )}
                </div>
              );
            })}
            <div className="btn-row">
              <button type="submit" className="btn" disabled={busy}>
                {busy ? 'Saving...' : 'Save Changes'}
              </button>
              <button type="button" className="btn btn--outline" onClick={cancel} disabled={busy}>
                Cancel
              </button>
            </div>
          </form>
        ) : (
          <dl className="profile-facts" data-testid="profile-facts">
            {PROFILE_FIELDS.map((field) => {
              const value = profileValues(profile)[field];
              return (
                <div key={field}>
                  <dt>{LABELS[field].label}</dt>
                  <dd className={value ? (field === 'bio' ? 'profile-facts__bio' : undefined) : 'profile-facts__empty'}>
                    {value || LABELS[field].empty}
                  </dd>
                </div>
              );
            })}
          </dl>
        )}
        <p className="profile-note">
          <a href={`/profile/${profile.id}`}>View your public profile</a>
        </p>
      </section>

      <section className="card" aria-labelledby="account-statistics">
        <h2 id="account-statistics">Account Statistics</h2>
        <dl className="profile-stats">
          <div>
            <dt>Member Since</dt>
            <dd>{memberSinceYear(profile.member_since)}</dd>
          </div>
          <div>
            <dt>Active Listings</dt>
            <dd>{profile.listings_count}</dd>
          </div>
          <div>
            <dt>Messages</dt>
            <dd>{profile.messages_count}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}
