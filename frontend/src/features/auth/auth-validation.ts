import { ACCOUNT_TEXTS, passwordError, SIGN_IN_RULES, SIGN_UP_RULES, TWO_FACTOR_CODE_PATTERN } from '@contracts/account';
import { trimText, validateTextFields } from '@contracts/text-rules';

export { ACCOUNT_TEXTS };

export type Errors<F extends string> = Partial<Record<F, string>>;

export type SignUpField = 'name' | 'email' | 'location' | 'password' | 'confirmPassword';
export type SignUpValues = Record<SignUpField, string>;

/** SPEC §5 "Sign-up", with the API's own rules (contracts/account.ts). Empty result = valid. */
export function validateSignUp(values: SignUpValues): Errors<SignUpField> {
  const errors: Errors<SignUpField> = { ...validateTextFields<keyof typeof SIGN_UP_RULES>(SIGN_UP_RULES, values) };
  const password = passwordError(values.password);
  if (password) errors.password = password;
  else if (values.confirmPassword !== values.password) errors.confirmPassword = ACCOUNT_TEXTS.passwordsDoNotMatch;
  return errors;
}

/** The sign-up payload: trimmed, the address in lower case, no empty location, never the confirmation. */
export function signUpPayload(values: SignUpValues): { name: string; email: string; password: string; location?: string } {
  const location = String(trimText(values.location));
  return {
    name: String(trimText(values.name)),
    email: String(trimText(values.email, SIGN_UP_RULES.email)),
    password: values.password,
    ...(location ? { location } : {}),
  };
}

export type SignInField = 'email' | 'password';

export function validateSignIn(values: Record<SignInField, string>): Errors<SignInField> {
  const errors: Errors<SignInField> = { ...validateTextFields<keyof typeof SIGN_IN_RULES>(SIGN_IN_RULES, values) };
  if (!values.password) errors.password = 'Password is required';
  return errors;
}

export type NewPasswordField = 'password' | 'confirmPassword';

/** SPEC §5 "Reset password": both fields required, at least 6 characters, must match. */
export function validateNewPassword(values: Record<NewPasswordField, string>, label = 'Password'): Errors<NewPasswordField> {
  if (!values.password && !values.confirmPassword) {
    return { password: ACCOUNT_TEXTS.fillInAllFields };
  }
  const errors: Errors<NewPasswordField> = {};
  const password = passwordError(values.password, label);
  if (password) errors.password = password;
  else if (!values.confirmPassword) errors.confirmPassword = ACCOUNT_TEXTS.fillInAllFields;
  else if (values.confirmPassword !== values.password) errors.confirmPassword = ACCOUNT_TEXTS.passwordsDoNotMatch;
  return errors;
}

/** Two-factor codes as typed: digits only, at most six (SPEC §5). */
export function normaliseCode(input: string): string {
  return input.replace(/\D/g, '').slice(0, 6);
}

export function isCompleteCode(code: string): boolean {
  return TWO_FACTOR_CODE_PATTERN.test(code);
}

/** Recovery codes are ten letters or digits, shown as XXXXX-XXXXX; spaces are forgiven. */
export function normaliseRecoveryCode(input: string): string {
  return input.replace(/\s+/g, '').toUpperCase();
}

export function isRecoveryCode(code: string): boolean {
  return /^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/.test(code);
}
