import { PROFILE_RULES } from '@contracts/account';
import { trimText, validateTextFields } from '@contracts/text-rules';
import type { PrivacySettings, Profile } from './profile-api';

export type ProfileField = keyof typeof PROFILE_RULES;
export type ProfileValues = Record<ProfileField, string>;
export const PROFILE_FIELDS = Object.keys(PROFILE_RULES) as ProfileField[];

/** The stored profile as form values (unset fields as empty text). */
export function profileValues(profile: Profile): ProfileValues {
  return { full_name: profile.full_name, phone: profile.phone ?? '', location: profile.location ?? '', bio: profile.bio ?? '' };
}

/** The API's rules for Account Information (contracts/account.ts). Empty result = valid. */
export function validateProfile(values: ProfileValues): Partial<Record<ProfileField, string>> {
  return validateTextFields(PROFILE_RULES, values);
}

/** Trimmed values; empty optional fields are sent as '' so the server clears them. */
export function profileUpdate(values: ProfileValues): ProfileValues {
  return {
    full_name: String(trimText(values.full_name)),
    phone: String(trimText(values.phone)),
    location: String(trimText(values.location)),
    bio: String(trimText(values.bio)),
  };
}

/** SPEC §2 "Profile": Member Since shows the year, or N/A. */
export function memberSinceYear(iso: string | null | undefined): string {
  const year = iso ? new Date(iso).getUTCFullYear() : NaN;
  return Number.isFinite(year) ? String(year) : 'N/A';
}

export const PRIVACY_SWITCHES: ReadonlyArray<{ key: keyof PrivacySettings; label: string; description: string }> = [
  { key: 'profile_visible', label: 'Public profile', description: 'Other people can open your profile page.' },
  {
    key: 'contact_visible',
    label: 'Show phone number',
    description: 'Signed-in members can press “Show number” on your profile. Your e-mail address is never shown.',
  },
  { key: 'listings_visible', label: 'Show my listings', description: 'Your live listings appear on your profile.' },
  { key: 'email_notifications', label: 'E-mail notifications', description: 'E-mails about unread messages and saved searches.' },
  { key: 'push_notifications', label: 'Browser notifications', description: 'Live notifications while Fieldmarket is open.' },
];

/** "Chrome on Android" from a user agent: enough to recognise a device in the sessions list. */
export function describeUserAgent(userAgent: string): string {
  const browser =
    [
      [/Edg\//, 'Edge'],
      [/OPR\/|Opera/, 'Opera'],
      [/Firefox\//, 'Firefox'],
      [/Chrome\/|Chromium\//, 'Chrome'],
      [/Safari\//, 'Safari'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? 'A browser';
  const system =
    [
      [/Android/, 'Android'],
      [/iPhone|iPad|iOS/, 'iOS'],
      [/Windows/, 'Windows'],
      [/Mac OS X|Macintosh/, 'macOS'],
      [/CrOS/, 'ChromeOS'],
      [/Linux/, 'Linux'],
    ].find(([pattern]) => (pattern as RegExp).test(userAgent))?.[1] ?? 'an unknown system';
  return `${browser as string} on ${system as string}`;
}

/** SPEC §3 "Export file": the product prefix and the current date (YYYY-MM-DD). */
export function exportFileName(now: Date): string {
  return `fieldmarket-data-${now.toISOString().slice(0, 10)}.json`;
}

/** Recovery codes as a text file the user can keep. */
export function recoveryCodesText(codes: readonly string[], email: string): string {
  return [`Fieldmarket recovery codes for ${email}`, 'Each code signs you in once, without the authenticator app.', '', ...codes, ''].join(
    '\n',
  );
}
