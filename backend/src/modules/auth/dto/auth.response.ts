import { ApiProperty } from '@nestjs/swagger';
import type { User } from '../../users/user.entity.js';

/** The signed-in user, as the header and pages need it (the spec's field names). */
export class MeResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'jane@example.co.uk' })
  email!: string;

  @ApiProperty({ example: 'Jane Farmer' })
  full_name!: string;

  @ApiProperty({ type: String, nullable: true })
  avatar_url!: string | null;

  @ApiProperty({ description: 'Whether the e-mail address is confirmed (posting and messaging need it)' })
  email_verified!: boolean;

  @ApiProperty()
  two_factor_enabled!: boolean;

  @ApiProperty({ enum: ['password', 'google'], description: 'How the account was created; Google accounts have no in-product two-factor' })
  provider!: 'password' | 'google';

  @ApiProperty({ enum: ['user', 'staff'] })
  role!: 'user' | 'staff';

  @ApiProperty({ format: 'date-time' })
  member_since!: string;
}

export function toMe(user: User): MeResponse {
  return {
    id: user.id,
    email: user.email,
    full_name: user.fullName,
    avatar_url: user.avatarUrl ?? null,
    email_verified: Boolean(user.emailVerifiedAt),
    two_factor_enabled: Boolean(user.twoFactorEnabledAt),
    provider: user.provider,
    role: user.role,
    member_since: user.createdAt.toISOString(),
  };
}

export class AuthStateResponse {
  @ApiProperty({ type: MeResponse, nullable: true, description: 'Null for a visitor' })
  user!: MeResponse | null;

  @ApiProperty({ description: 'A password was given and a two-factor code is awaited in this browser' })
  two_factor_pending!: boolean;
}

export class SignInResponse {
  @ApiProperty({ enum: ['signed-in', 'two-factor-required'] })
  status!: 'signed-in' | 'two-factor-required';

  @ApiProperty({ type: MeResponse, required: false })
  user?: MeResponse;
}

export class MessageResponse {
  @ApiProperty()
  message!: string;
}

export class SessionInfo {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ description: 'The session making this request' })
  current!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  last_seen_at!: string;

  @ApiProperty({ example: 'Mozilla/5.0 (Android 14; Mobile)' })
  user_agent!: string;

  @ApiProperty({ example: '203.0.113.0/24', description: 'The network signed in from, not the exact address' })
  network!: string;
}

export class TwoFactorSetupResponse {
  @ApiProperty({ description: 'QR code for the authenticator app, as a data: URL for an <img>' })
  qrCode!: string;

  @ApiProperty({ description: 'The same secret, for entering by hand' })
  secret!: string;

  @ApiProperty()
  otpauthUrl!: string;
}

export class RecoveryCodesResponse {
  @ApiProperty({ type: [String], description: 'Shown once: each signs in once without the app' })
  recovery_codes!: string[];
}
