import { Body, Controller, Delete, Get, HttpCode, Inject, NotFoundException, Param, ParseUUIDPipe, Post, Req, Res } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { ClientIp } from '../../common/client-ip.js';
import { FieldValidationException } from '../../common/errors.js';
import { ACCOUNT_TEXTS } from '../../contracts/account.js';
import type { User } from '../users/user.entity.js';
import { type AuthenticatedRequest, CurrentSession, CurrentUser, SignedIn } from './access.js';
import { AuthService } from './auth.service.js';
import {
  EmailLinkRequest,
  PasswordResetCompletion,
  PasswordResetLink,
  PasswordResetRequest,
  SignInRequest,
  SignUpRequest,
  TwoFactorAnswerRequest,
} from './dto/auth.request.js';
import { AuthStateResponse, MessageResponse, SessionInfo, SignInResponse, toMe } from './dto/auth.response.js';
import type { Session } from './session.entity.js';
import { Sessions } from './sessions.service.js';
import { TwoFactor } from './two-factor.service.js';

@ApiTags('auth')
@Controller('auth')
export class AuthController {
  constructor(
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(Sessions) private readonly sessions: Sessions,
    @Inject(TwoFactor) private readonly twoFactor: TwoFactor,
  ) {}

  @Post('signup')
  @HttpCode(201)
  @ApiEnvelope(201, MessageResponse, { description: 'The same answer whether or not the address already has an account' })
  @ApiErrorEnvelope(400, 'A field is missing or invalid, or the password is too common')
  @ApiErrorEnvelope(429, 'Too many accounts created from this connection')
  async signUp(@Body() body: SignUpRequest, @ClientIp() clientIp: string): Promise<MessageResponse> {
    await this.auth.signUp(body, clientIp);
    return { message: ACCOUNT_TEXTS.signUpSuccess };
  }

  @Post('signin')
  @HttpCode(200)
  @ApiEnvelope(200, SignInResponse, { description: 'Signed in (session cookie set), or a two-factor code is awaited' })
  @ApiErrorEnvelope(401, 'Incorrect email or password')
  @ApiErrorEnvelope(429, 'Too many sign-in attempts')
  async signIn(
    @Body() body: SignInRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SignInResponse> {
    const result = await this.auth.signIn(body, request, reply);
    return result.status === 'signed-in' ? { status: 'signed-in', user: toMe(result.user) } : { status: 'two-factor-required' };
  }

  @Post('signout')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'The session is ended on the server and its cookies cleared' })
  async signOut(@Req() request: AuthenticatedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<MessageResponse> {
    if (request.auth) await this.sessions.end(request.auth.session.id);
    this.sessions.clearCookies(reply);
    return { message: 'Signed out' };
  }

  @Get('me')
  @ApiEnvelope(200, AuthStateResponse, { description: 'The signed-in user, or null for a visitor' })
  async me(@Req() request: AuthenticatedRequest): Promise<AuthStateResponse> {
    const user = request.auth?.user;
    return { user: user ? toMe(user) : null, two_factor_pending: !user && (await this.twoFactor.hasPendingChallenge(request)) };
  }

  @Post('refresh')
  @HttpCode(200)
  @SignedIn()
  @ApiEnvelope(200, AuthStateResponse, { description: 'The session continues under a new token (cookie)' })
  @ApiErrorEnvelope(401, 'Session expired. Please sign in again.')
  async refresh(
    @CurrentUser() user: User,
    @CurrentSession() session: Session,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AuthStateResponse> {
    const token = await this.sessions.rotate(session.id);
    if (token) this.sessions.setCookies(reply, token);
    return { user: toMe(user), two_factor_pending: false };
  }

  @Post('verify-email')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse)
  @ApiErrorEnvelope(400, 'The link is invalid, used or expired')
  async verifyEmail(@Body() body: EmailLinkRequest): Promise<MessageResponse> {
    await this.auth.verifyEmail(body.token);
    return { message: 'Your email address is confirmed.' };
  }

  @Post('verify-email/resend')
  @HttpCode(200)
  @SignedIn()
  @ApiEnvelope(200, MessageResponse)
  @ApiErrorEnvelope(429, 'Several links were sent recently')
  async resendVerification(@CurrentUser() user: User): Promise<MessageResponse> {
    await this.auth.resendVerification(user);
    return { message: `We have sent a new confirmation link to ${user.email}.` };
  }

  @Post('password-reset')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'The same answer whether or not the address has an account' })
  @ApiErrorEnvelope(429, 'Too many reset requests from this connection')
  async requestPasswordReset(@Body() body: PasswordResetRequest, @ClientIp() clientIp: string): Promise<MessageResponse> {
    await this.auth.requestPasswordReset(body.email, clientIp);
    return { message: ACCOUNT_TEXTS.resetRequested };
  }

  @Post('password-reset/check')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'The link still works; checking it does not use it' })
  @ApiErrorEnvelope(400, 'Invalid reset link. Please request a new password reset.')
  async checkResetLink(@Body() body: PasswordResetLink): Promise<MessageResponse> {
    await this.auth.checkResetLink(body.token);
    return { message: 'This reset link works.' };
  }

  @Post('password-reset/complete')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'The password is changed and every session has ended' })
  @ApiErrorEnvelope(400, 'Invalid reset link. Please request a new password reset.')
  async resetPassword(@Body() body: PasswordResetCompletion): Promise<MessageResponse> {
    await this.auth.resetPassword(body.token, body.password);
    return { message: 'Your password has been changed. Sign in with your new password.' };
  }

  @Post('two-factor/verify-login')
  @HttpCode(200)
  @ApiEnvelope(200, SignInResponse, { description: 'The code answers this browser’s challenge: signed in' })
  @ApiErrorEnvelope(400, 'Invalid verification code, or a code already used')
  @ApiErrorEnvelope(401, 'No challenge in this browser, or it expired: sign in again')
  @ApiErrorEnvelope(429, 'Too many incorrect codes: sign in again, or wait')
  async verifyLogin(
    @Body() body: TwoFactorAnswerRequest,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SignInResponse> {
    if (!body.token && !body.recovery_code) throw new FieldValidationException({ token: ACCOUNT_TEXTS.codeFormat });
    const answer = body.token ? { code: body.token } : { recoveryCode: body.recovery_code as string };
    const user = await this.twoFactor.answerChallenge(request, reply, answer);
    return { status: 'signed-in', user: toMe(user) };
  }

  @Post('two-factor/cancel')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'The challenge is dropped; the browser stays signed out' })
  async cancelTwoFactor(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<MessageResponse> {
    await this.twoFactor.cancelChallenge(request, reply);
    return { message: ACCOUNT_TEXTS.twoFactorRequired };
  }

  @Get('sessions')
  @SignedIn()
  @ApiEnvelope(200, SessionInfo, { isArray: true, description: 'Where the account is signed in' })
  async listSessions(@CurrentUser() user: User, @CurrentSession() current: Session): Promise<SessionInfo[]> {
    return (await this.sessions.list(user.id)).map((session) => ({
      id: session.id,
      current: session.id === current.id,
      created_at: session.createdAt.toISOString(),
      last_seen_at: session.lastSeenAt.toISOString(),
      user_agent: session.userAgent,
      network: session.network,
    }));
  }

  @Delete('sessions/others')
  @SignedIn()
  @ApiEnvelope(200, MessageResponse, { description: 'Every other session of the account is ended' })
  async endOtherSessions(@CurrentUser() user: User, @CurrentSession() current: Session): Promise<MessageResponse> {
    const ended = await this.sessions.endAll(user.id, { except: current.id });
    return { message: `Signed out of ${ended} other session${ended === 1 ? '' : 's'}.` };
  }

  @Delete('sessions/:id')
  @SignedIn()
  @ApiEnvelope(200, MessageResponse)
  @ApiErrorEnvelope(404, 'No such session of this account')
  async endSession(
    @CurrentUser() user: User,
    @Param('id', new ParseUUIDPipe({ exceptionFactory: () => new NotFoundException('Session not found') })) id: string,
  ): Promise<MessageResponse> {
    // Only the account's own sessions: another user's id is simply not found.
    if (!(await this.sessions.list(user.id)).some((s) => s.id === id)) throw new NotFoundException('Session not found');
    await this.sessions.end(id);
    return { message: 'That session is signed out.' };
  }
}
