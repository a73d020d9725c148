import { useState } from 'react';
import { updatePrivacy, type PrivacySettings, type Profile } from './profile-api';
import { PRIVACY_SWITCHES } from './profile-logic';
import type { Notify } from './notice';

/** Privacy Settings: five switches; each applies at once and reverts if the server refuses (SPEC §4). */
export function PrivacyPanel({ profile, onSaved, notify }: { profile: Profile; onSaved: (profile: Profile) => void; notify: Notify }) {
  const [settings, setSettings] = useState<PrivacySettings>(profile.privacy_settings);
  const [pending, setPending] = useState<keyof PrivacySettings | null>(null);

  const toggle = async (key: keyof PrivacySettings) => {
    if (pending) return;
    const previous = settings;
    const next = { ...settings, [key]: !settings[key] };
    setSettings(next);
    setPending(key);
    const result = await updatePrivacy(next);
    setPending(null);
    if (result.ok) {
      setSettings(result.data);
      onSaved({ ...profile, privacy_settings: result.data });
      notify({ kind: 'success', text: 'Privacy settings updated successfully!' });
    } else {
      setSettings(previous);
      notify({ kind: 'error', text: result.error });
    }
  };

  return (
    <section className="card" aria-labelledby="privacy-settings">
      <h2 id="privacy-settings">Privacy Settings</h2>
      <ul className="switches">
        {PRIVACY_SWITCHES.map(({ key, label, description }) => (
          <li key={key} className="switches__item">
            <div>
              <span className="switches__label" id={`privacy-${key}-label`}>
                {label}
              </span>
              <p className="profile-note" id={`privacy-${key}-description`}>
                {description}
              </p>
            </div>
            <button
              type="button"
              role="switch"
              className="switch"
              aria-checked={settings[key]}
              aria-labelledby={`privacy-${key}-label`}
              aria-describedby={`privacy-${key}-description`}
              aria-busy={pending === key}
              onClick={() => void toggle(key)}
            >
              <span className="switch__thumb" aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
