import { Body, Controller, Delete, Get, Header, HttpCode, Inject, Param, Post, Put, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { type AuthenticatedRequest, CurrentSession, CurrentUser, SignedIn, SignInText, VerifiedEmail } from '../auth/access.js';
import { MessageResponse } from '../auth/dto/auth.response.js';
import type { Session } from '../auth/session.entity.js';
import { Sessions } from '../auth/sessions.service.js';
import type { User } from '../users/user.entity.js';
import {
  AccountDeletionRequest,
  PasswordChangeRequest,
  PhoneRevealResponse,
  PrivacySettings,
  PrivacyUpdateRequest,
  ProfileResponse,
  ProfileUpdateRequest,
  PublicProfileResponse,
} from './dto/profile.dto.js';
import { ProfileService } from './profile.service.js';

const PHONE_SIGN_IN_TEXT = 'Please sign in to see the phone number.';

/** The signed-in user's own profile (SPEC §7 "Profile and auth"). */
@ApiTags('profile')
@Controller('profile')
export class ProfileController {
  constructor(
    @Inject(ProfileService) private readonly profiles: ProfileService,
    @Inject(Sessions) private readonly sessions: Sessions,
  ) {}

  @Get()
  @SignedIn()
  @ApiEnvelope(200, ProfileResponse)
  get(@CurrentUser() user: User): Promise<ProfileResponse> {
    return this.profiles.profileOf(user.id);
  }

  @Put()
  @SignedIn()
  @ApiEnvelope(200, ProfileResponse)
  @ApiErrorEnvelope(400, 'A field is invalid; `fields` says which')
  update(@CurrentUser() user: User, @Body() body: ProfileUpdateRequest): Promise<ProfileResponse> {
    return this.profiles.update(user.id, body);
  }

  @Put('privacy')
  @SignedIn()
  @ApiEnvelope(200, PrivacySettings)
  updatePrivacy(@CurrentUser() user: User, @Body() body: PrivacyUpdateRequest): Promise<PrivacySettings> {
    return this.profiles.updatePrivacy(user.id, body.privacy_settings);
  }

  @Put('password')
  @SignedIn()
  @ApiEnvelope(200, MessageResponse, { description: 'Changed; every other session is signed out' })
  @ApiErrorEnvelope(400, 'The current password is wrong, or the new one is invalid or too common')
  async changePassword(
    @CurrentUser() user: User,
    @CurrentSession() session: Session,
    @Body() body: PasswordChangeRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponse> {
    const token = await this.profiles.changePassword(user, session, body);
    if (token) this.sessions.setCookies(reply, token);
    return { message: 'Password changed. Your other sessions have been signed out.' };
  }

  @Get('export')
  @SignedIn()
  @Header('cache-control', 'no-store')
  @ApiEnvelope(200, Object, { description: 'Everything stored about the user, as JSON' })
  export(@CurrentUser() user: User): Promise<Record<string, unknown>> {
    return this.profiles.exportFor(user.id);
  }

  @Delete()
  @SignedIn()
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'Deleted and signed out everywhere' })
  @ApiErrorEnvelope(400, 'The password is missing or wrong')
  @ApiErrorEnvelope(403, 'A Google account must sign in with Google again first')
  async delete(
    @CurrentUser() user: User,
    @CurrentSession() session: Session,
    @Body() body: AccountDeletionRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponse> {
    await this.profiles.deleteAccount(user, session, body.password);
    this.sessions.clearCookies(reply);
    return { message: 'Account deleted successfully' };
  }

  @Get('public/:id')
  @ApiEnvelope(200, PublicProfileResponse)
  @ApiErrorEnvelope(404, 'No such profile, or its owner keeps it private')
  publicProfile(@Param('id') id: string, @Req() request: AuthenticatedRequest): Promise<PublicProfileResponse> {
    return this.profiles.publicProfile(id, request.auth?.user.id);
  }

  @Post('public/:id/phone')
  @VerifiedEmail()
  @SignInText(PHONE_SIGN_IN_TEXT)
  @HttpCode(200)
  @Header('cache-control', 'no-store')
  @ApiEnvelope(200, PhoneRevealResponse, { description: 'The number, after "Show number"; counted per member per day' })
  @ApiErrorEnvelope(404, 'No such member, or they do not show a phone number')
  @ApiErrorEnvelope(429, 'Too many numbers seen today')
  revealPhone(@Param('id') id: string, @CurrentUser() viewer: User): Promise<PhoneRevealResponse> {
    return this.profiles.revealPhone(id, viewer);
  }
}

/** SPEC §7's other paths to a person's public page and listings. */
@ApiTags('profile')
@Controller('users')
export class UsersController {
  constructor(@Inject(ProfileService) private readonly profiles: ProfileService) {}

  @Get('profile/:id')
  @ApiEnvelope(200, PublicProfileResponse)
  @ApiErrorEnvelope(404, 'No such profile, or its owner keeps it private')
  profile(@Param('id') id: string, @Req() request: AuthenticatedRequest): Promise<PublicProfileResponse> {
    return this.profiles.publicProfile(id, request.auth?.user.id);
  }
}
