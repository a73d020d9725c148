import type { TextRule } from './text-rules.js';
import { ukPhoneError } from './trust.js';

/** Sign-up (SPEC §5 "Sign-up"): name, e-mail, optional location; the password has its own rule. */
export const SIGN_UP_RULES = {
  name: { label: 'Name', maxLength: 100, singleLine: true },
  email: { label: 'Email', maxLength: 254, email: true, singleLine: true, lowercase: true },
  location: { label: 'Location', maxLength: 100, singleLine: true, optional: true },
} as const satisfies Record<string, TextRule>;

export const SIGN_IN_RULES = {
  email: { label: 'Email', maxLength: 254, email: true, singleLine: true, lowercase: true },
} as const satisfies Record<string, TextRule>;

/** Account Information on the profile (SPEC §2 "Profile"); empty optional fields are shown as "Not set". */
export const PROFILE_RULES = {
  full_name: { label: 'Full name', maxLength: 100, singleLine: true },
  phone: { label: 'Phone', maxLength: 30, singleLine: true, optional: true, format: ukPhoneError },
  location: { label: 'Location', maxLength: 100, singleLine: true, optional: true },
  bio: { label: 'Bio', maxLength: 500, optional: true },
} as const satisfies Record<string, TextRule>;

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;

/** The password rule of SPEC §5 (at least 6 characters), with an upper bound; passwords are not trimmed. */
export function passwordError(password: unknown, label = 'Password'): string | undefined {
  if (password === undefined || password === null || password === '') return `${label} is required`;
  if (typeof password !== 'string') return `${label} must be text`;
  if (password.length < PASSWORD_MIN_LENGTH) return `${label} must be at least ${PASSWORD_MIN_LENGTH} characters long`;
  if (password.length > PASSWORD_MAX_LENGTH) return `${label} must be at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}

/** Two-factor codes: digits only, exactly six (SPEC §5 "Two-factor code"). */
export const TWO_FACTOR_CODE_PATTERN = /^\d{6}$/;

/** Texts both sides show (SPEC §5 and §8), kept here once. */
export const ACCOUNT_TEXTS = {
  passwordsDoNotMatch: 'Passwords do not match',
  fillInAllFields: 'Please fill in all fields',
  commonPassword: 'This password is too common and appears in lists of leaked passwords. Please choose another.',
  signUpSuccess: 'Account created successfully! Please check your email to verify your account.',
  wrongCredentials: 'Incorrect email or password.',
  sessionExpired: 'Session expired. Please sign in again.',
  signInRequired: 'Please sign in to continue.',
  verifyEmailFirst:
    'Please verify your email address first. We sent you a link when you signed up; you can send it again from your profile.',
  verificationLinkInvalid: 'This verification link is invalid or has expired. Sign in and request a new one from your profile.',
  resetRequested:
    'If an account exists for that address, we have sent it a link to reset the password. The link works once, within an hour.',
  invalidResetLink: 'Invalid reset link. Please request a new password reset.',
  wrongPassword: 'Your current password is not correct.',
  twoFactorRequired: '2FA verification required for login',
  twoFactorNotForGoogle: '2FA is not available for Google OAuth users',
  invalidCode: 'Invalid verification code',
  codeAlreadyUsed: 'This code has already been used. Wait for the next code from your authenticator app.',
  codeFormat: 'Please enter a valid 6-digit code',
  deleteConfirm: 'Are you sure you want to delete your account? This action cannot be undone.',
  /** SPEC §8 "Profile": said on the home page the deleted account lands on. */
  accountDeleted: 'Account deleted successfully',
  missingClientHeader: 'This request is missing the X-Requested-With header that pages of this site send. Reload the page and try again.',
  googleNotConfigured: 'Google sign-in is not configured on this server.',
  /** SPEC §8 "OAuth failure". */
  googleFailed: 'Authentication failed. Please try again.',
  googleEmailUnverified:
    'Your Google address is not verified with Google, so it cannot be linked to the existing account. Sign in with your password.',
  googleAccountUnconfirmed:
    'An account with this address exists but its address has not been confirmed, so it cannot be linked to Google yet. Open the confirmation link we e-mailed you, or reset your password, then continue with Google.',
  googleLinkedElsewhere:
    'The account with this address is linked to a different Google account. Continue with that Google account, or sign in with your password.',
  googleReauthMismatch:
    'That Google account is not the one linked to your profile, so nothing was changed. Continue with your own Google account.',
  tooManySignInsShort: 'Too many sign-in attempts. Please wait a few minutes and try again.',
} as const;

/**
 * Where Google sign-in ends when it cannot sign someone in: the page it sends the browser back to
 * (/signin, or /profile for a re-authentication) gets `?error=<code>` and shows the code's text.
 */
export const GOOGLE_SIGN_IN_ERRORS = {
  'google-not-configured': ACCOUNT_TEXTS.googleNotConfigured,
  'google-failed': ACCOUNT_TEXTS.googleFailed,
  'google-email-unverified': ACCOUNT_TEXTS.googleEmailUnverified,
  'google-account-unconfirmed': ACCOUNT_TEXTS.googleAccountUnconfirmed,
  'google-linked-elsewhere': ACCOUNT_TEXTS.googleLinkedElsewhere,
  'google-reauth-mismatch': ACCOUNT_TEXTS.googleReauthMismatch,
  'too-many-attempts': ACCOUNT_TEXTS.tooManySignInsShort,
  'session-expired': ACCOUNT_TEXTS.sessionExpired,
} as const;

export type GoogleSignInError = keyof typeof GOOGLE_SIGN_IN_ERRORS;
