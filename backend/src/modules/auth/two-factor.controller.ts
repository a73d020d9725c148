import { BadRequestException, Body, Controller, Get, HttpCode, Inject, Post, Put, Res } from '@nestjs/common';
import { ApiProperty, ApiTags } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import type { FastifyReply } from 'fastify';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { ClientIp } from '../../common/client-ip.js';
import { FieldValidationException } from '../../common/errors.js';
import { ACCOUNT_TEXTS } from '../../contracts/account.js';
import type { User } from '../users/user.entity.js';
import { CurrentSession, CurrentUser, SignedIn } from './access.js';
import { TwoFactorAnswerRequest, TwoFactorCodeRequest } from './dto/auth.request.js';
import { MessageResponse, RecoveryCodesResponse, TwoFactorSetupResponse } from './dto/auth.response.js';
import type { Session } from './session.entity.js';
import { Sessions } from './sessions.service.js';
import { TwoFactor } from './two-factor.service.js';

class TwoFactorToggleRequest extends TwoFactorAnswerRequest {
  @ApiProperty({ description: 'false turns two-factor off (with a code); turning it on goes through setup and verify' })
  @IsBoolean({ message: 'enabled must be true or false' })
  enabled!: boolean;
}

class TwoFactorStatusResponse {
  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({ description: 'Recovery codes not used yet' })
  recovery_codes_left!: number;
}

/** Two-factor sign-in on the profile (SPEC §7): setup, verify to turn on, disable. Google accounts are refused. */
@ApiTags('two-factor')
@Controller('profile/two-factor')
@SignedIn()
export class TwoFactorController {
  constructor(
    @Inject(TwoFactor) private readonly twoFactor: TwoFactor,
    @Inject(Sessions) private readonly sessions: Sessions,
  ) {}

  @Get()
  @ApiEnvelope(200, TwoFactorStatusResponse)
  async status(@CurrentUser() user: User): Promise<TwoFactorStatusResponse> {
    if (user.provider === 'google') throw new BadRequestException(ACCOUNT_TEXTS.twoFactorNotForGoogle);
    return { enabled: this.twoFactor.isEnabledFor(user), recovery_codes_left: await this.twoFactor.remainingRecoveryCodes(user.id) };
  }

  @Post('setup')
  @HttpCode(200)
  @ApiEnvelope(200, TwoFactorSetupResponse, { description: 'A new secret; two-factor stays off until a code is verified' })
  @ApiErrorEnvelope(400, 'Already on, or a Google account')
  setup(@CurrentUser() user: User): Promise<TwoFactorSetupResponse> {
    return this.twoFactor.setup(user.id);
  }

  @Post('verify')
  @HttpCode(200)
  @ApiEnvelope(200, RecoveryCodesResponse, {
    description: 'Two-factor is on; the recovery codes are shown this once; every other session of the account has ended',
  })
  @ApiErrorEnvelope(400, 'Invalid verification code')
  async verify(
    @CurrentUser() user: User,
    @CurrentSession() session: Session,
    @Body() body: TwoFactorCodeRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RecoveryCodesResponse> {
    const { recoveryCodes, sessionToken } = await this.twoFactor.enable(user.id, body.token, session.id);
    if (sessionToken) this.sessions.setCookies(reply, sessionToken);
    return { recovery_codes: recoveryCodes };
  }

  @Post('disable')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse)
  @ApiErrorEnvelope(400, 'Invalid verification code, or a code already used')
  @ApiErrorEnvelope(429, 'Too many incorrect codes')
  async disable(
    @CurrentUser() user: User,
    @CurrentSession() session: Session,
    @Body() body: TwoFactorAnswerRequest,
    @ClientIp() clientIp: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponse> {
    await this.turnOff(user, session, body, clientIp, reply);
    return { message: 'Two-factor authentication disabled successfully!' };
  }

  /** SPEC §7 "PUT /profile/two-factor (toggle)": off with a code; on through setup and verify. */
  @Put()
  @ApiEnvelope(200, MessageResponse)
  @ApiErrorEnvelope(400, 'Invalid verification code, or turning on without setup')
  @ApiErrorEnvelope(429, 'Too many incorrect codes')
  async toggle(
    @CurrentUser() user: User,
    @CurrentSession() session: Session,
    @Body() body: TwoFactorToggleRequest,
    @ClientIp() clientIp: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<MessageResponse> {
    if (user.provider === 'google') throw new BadRequestException(ACCOUNT_TEXTS.twoFactorNotForGoogle);
    if (body.enabled) throw new BadRequestException('To turn two-factor authentication on, scan the QR code from setup and verify a code.');
    await this.turnOff(user, session, body, clientIp, reply);
    return { message: 'Two-factor authentication disabled successfully!' };
  }

  private async turnOff(user: User, session: Session, body: TwoFactorAnswerRequest, clientIp: string, reply: FastifyReply): Promise<void> {
    if (!body.token && !body.recovery_code) throw new FieldValidationException({ token: ACCOUNT_TEXTS.codeFormat });
    const answer = body.token ? { code: body.token } : { recoveryCode: body.recovery_code as string };
    const { sessionToken } = await this.twoFactor.disable(user.id, answer, session.id, clientIp);
    if (sessionToken) this.sessions.setCookies(reply, sessionToken);
  }
}
