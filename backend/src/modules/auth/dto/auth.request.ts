import { PasswordField, PatternField, TextField } from '../../../common/validation.js';
import { SIGN_IN_RULES, SIGN_UP_RULES, TWO_FACTOR_CODE_PATTERN, ACCOUNT_TEXTS } from '../../../contracts/account.js';

export class SignUpRequest {
  @TextField(SIGN_UP_RULES.name, { example: 'Jane Farmer' })
  name!: string;

  @TextField(SIGN_UP_RULES.email, { example: 'jane@example.co.uk' })
  email!: string;

  @PasswordField('new')
  password!: string;

  @TextField(SIGN_UP_RULES.location, { example: 'Taunton, Somerset' })
  location?: string;
}

export class SignInRequest {
  @TextField(SIGN_IN_RULES.email, { example: 'jane@example.co.uk' })
  email!: string;

  @PasswordField('given')
  password!: string;
}

/** The token from a link sent by e-mail. */
export class EmailLinkRequest {
  @PatternField(/^[\w-]{10,100}$/, 'This link is incomplete. Open it from the e-mail again.')
  token!: string;
}

export class PasswordResetRequest {
  @TextField(SIGN_IN_RULES.email, { example: 'jane@example.co.uk' })
  email!: string;
}

/** The token of a reset link, checked before the form is shown. */
export class PasswordResetLink {
  @PatternField(/^[\w-]{10,100}$/, ACCOUNT_TEXTS.invalidResetLink)
  token!: string;
}

export class PasswordResetCompletion extends PasswordResetLink {
  @PasswordField('new')
  password!: string;
}

/** A code from the authenticator app (`token`, as SPEC §7 names it) or a recovery code. */
export class TwoFactorAnswerRequest {
  @PatternField(TWO_FACTOR_CODE_PATTERN, ACCOUNT_TEXTS.codeFormat, { optional: true, example: '123456' })
  token?: string;

  @PatternField(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, 'A recovery code has ten letters and digits, like k3x9q-7m2pd.', { optional: true })
  recovery_code?: string;
}

export class TwoFactorCodeRequest {
  @PatternField(TWO_FACTOR_CODE_PATTERN, ACCOUNT_TEXTS.codeFormat, { example: '123456' })
  token!: string;
}
