import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsBoolean, IsDefined, IsObject, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { PasswordField, TextField } from '../../../common/validation.js';
import { PROFILE_RULES } from '../../../contracts/account.js';
import { LAST_ACTIVE, type LastActive, SELLER_TYPES, type SellerType } from '../../../contracts/trust.js';

export class PrivacySettings {
  @ApiProperty({ description: 'Others can open the public profile' })
  @IsBoolean({ message: 'profile_visible must be true or false' })
  profile_visible!: boolean;

  @ApiProperty({ description: 'Signed-in members with a confirmed e-mail may ask to see the phone number' })
  @IsBoolean({ message: 'contact_visible must be true or false' })
  contact_visible!: boolean;

  @ApiProperty({ description: 'Others see the live listings on the public profile' })
  @IsBoolean({ message: 'listings_visible must be true or false' })
  listings_visible!: boolean;

  @ApiProperty({ description: 'E-mails about unread messages and saved searches' })
  @IsBoolean({ message: 'email_notifications must be true or false' })
  email_notifications!: boolean;

  @ApiProperty({ description: 'Live notifications in the browser' })
  @IsBoolean({ message: 'push_notifications must be true or false' })
  push_notifications!: boolean;
}

export class ProfileStatisticsResponse {
  @ApiProperty()
  listings_count!: number;

  @ApiProperty()
  messages_count!: number;
}

/** The profile (SPEC §3 "Profile"), for its owner. */
export class ProfileResponse extends ProfileStatisticsResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  email!: string;

  @ApiProperty()
  full_name!: string;

  @ApiProperty({ type: String, nullable: true })
  phone!: string | null;

  @ApiProperty({ type: String, nullable: true })
  location!: string | null;

  @ApiProperty({ type: String, nullable: true })
  bio!: string | null;

  @ApiProperty({ type: String, nullable: true })
  avatar_url!: string | null;

  @ApiProperty({ format: 'date-time' })
  member_since!: string;

  @ApiProperty({ description: 'The e-mail address is confirmed' })
  email_confirmed!: boolean;

  @ApiProperty()
  two_factor_enabled!: boolean;

  @ApiProperty({ enum: ['password', 'google'] })
  provider!: 'password' | 'google';

  @ApiProperty({ type: PrivacySettings })
  privacy_settings!: PrivacySettings;
}

export class ProfileUpdateRequest {
  @TextField(PROFILE_RULES.full_name, { example: 'Jane Farmer' })
  full_name!: string;

  @TextField(PROFILE_RULES.phone, { example: '01823 555 123' })
  phone?: string;

  @TextField(PROFILE_RULES.location, { example: 'Taunton, Somerset' })
  location?: string;

  @TextField(PROFILE_RULES.bio, { example: 'Dairy farmer on the Levels; selling surplus hay each autumn.' })
  bio?: string;
}

export class PrivacyUpdateRequest {
  @ApiProperty({ type: PrivacySettings })
  @IsDefined({ message: 'privacy_settings is required' })
  @IsObject({ message: 'privacy_settings must be an object' })
  @ValidateNested()
  @Type(() => PrivacySettings)
  privacy_settings!: PrivacySettings;
}

export class PasswordChangeRequest {
  @PasswordField('given', 'Current password')
  current_password!: string;

  @PasswordField('new', 'New password')
  new_password!: string;
}

/** Google accounts without a password leave it out and re-authenticate with Google instead. */
export class AccountDeletionRequest {
  @ApiProperty({ required: false, format: 'password' })
  @IsOptional()
  @MaxLength(1024, { message: 'Password is too long' })
  @IsString({ message: 'Password must be text' })
  password?: string;
}

export class PublicProfileResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  full_name!: string;

  @ApiProperty({ type: String, nullable: true })
  avatar_url!: string | null;

  @ApiProperty({ type: String, nullable: true })
  location!: string | null;

  @ApiProperty({ type: String, nullable: true })
  bio!: string | null;

  @ApiProperty({ format: 'date-time' })
  member_since!: string;

  @ApiProperty({ description: '"Business verified": our team checked the trade seller\'s details (not an e-mail check)' })
  business_verified!: boolean;

  @ApiProperty({
    description: 'The owner has a phone number and lets members see it; POST …/phone reveals it (never the e-mail address)',
  })
  phone_available!: boolean;

  @ApiProperty({ description: 'Whether the owner shows their listings' })
  listings_visible!: boolean;

  @ApiProperty({ enum: SELLER_TYPES, nullable: true, type: String, description: 'Private or trade seller; null if never chosen' })
  seller_type!: SellerType | null;

  @ApiProperty({ type: String, nullable: true, description: "A trade seller's business name" })
  business_name!: string | null;

  @ApiProperty({ type: String, nullable: true, description: "A trade seller's Companies House number" })
  company_number!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: '"Business verified": when our team checked the details' })
  business_verified_at!: string | null;

  @ApiProperty({ description: 'Listings marked sold or let' })
  listings_sold!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Median minutes to a first reply over the last year; null under 3 replies' })
  typical_reply_minutes!: number | null;

  @ApiProperty({ enum: LAST_ACTIVE, description: 'Coarse, never the exact time' })
  last_active!: LastActive;

  @ApiProperty({ description: 'A holding (CPH) number is declared: "CPH declared", never "verified"' })
  cph_declared!: boolean;
}

/** A seller's phone number, shown on request to a signed-in member (issue 23 §4). */
export class PhoneRevealResponse {
  @ApiProperty({ example: '07700 900123' })
  phone!: string;
}
