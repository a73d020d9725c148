import { Inject, Module, type OnModuleInit } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { fastifyCookie } from '@fastify/cookie';
import { ormEntities } from '../../infra/database/entities.js';
import { Realtime } from '../../infra/realtime/realtime.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { AccessGuard } from './access.js';
import { AccountData } from './account-data.js';
import { AccountMailSubscriber } from './account-mail.subscriber.js';
import { AuthController } from './auth.controller.js';
import { AuthService } from './auth.service.js';
import { EmailToken } from './email-token.entity.js';
import { EmailTokens } from './email-tokens.service.js';
import { EndedSessionsSubscriber } from './ended-sessions.js';
import { GoogleAuthController } from './google/google-auth.controller.js';
import { GoogleAuthGuard } from './google/google-auth.guard.js';
import { GoogleSignIn, GOOGLE_CALLBACK_PATH } from './google/google-sign-in.service.js';
import { GOOGLE_STRATEGY, GoogleStrategy } from './google/google-strategy.js';
import { Passwords } from './passwords.js';
import { Session } from './session.entity.js';
import { SESSION_COOKIE, Sessions } from './sessions.service.js';
import { TwoFactorController } from './two-factor.controller.js';
import { LoginChallenge, RecoveryCode } from './two-factor.entities.js';
import { TwoFactor } from './two-factor.service.js';

/**
 * Accounts' way in: sign-up, sign-in (password or Google, then two-factor when on), sessions in httpOnly
 * cookies, links by e-mail, and the guard every route passes (SignedIn, VerifiedEmail, CurrentUser).
 * Also tells Realtime whose socket is whose.
 */
@Module({
  imports: [ormEntities([Session, EmailToken, LoginChallenge, RecoveryCode])],
  controllers: [AuthController, TwoFactorController, GoogleAuthController],
  providers: [
    Passwords,
    Sessions,
    EmailTokens,
    TwoFactor,
    AuthService,
    {
      provide: GOOGLE_STRATEGY,
      inject: [APP_CONFIG],
      // Not configured: no strategy, and the routes say so (GoogleSignIn.prepare).
      useFactory: (config: AppConfig) =>
        config.google ? new GoogleStrategy(config.google, `${config.publicUrl}${GOOGLE_CALLBACK_PATH}`) : null,
    },
    GoogleSignIn,
    GoogleAuthGuard,
    AccountMailSubscriber,
    AccountData,
    EndedSessionsSubscriber,
    { provide: APP_GUARD, useClass: AccessGuard },
  ],
  exports: [Sessions, Passwords, AuthService, TwoFactor],
})
export class AuthModule implements OnModuleInit {
  constructor(
    @Inject(Realtime) private readonly realtime: Realtime,
    @Inject(Sessions) private readonly sessions: Sessions,
  ) {}

  onModuleInit(): void {
    this.realtime.authenticateWith({
      authenticate: async (handshake) => {
        const token = fastifyCookie.parse(handshake.headers.cookie ?? '')[SESSION_COOKIE];
        const auth = await this.sessions.resolve(token);
        return auth ? { userId: auth.user.id, sessionId: auth.session.id } : null;
      },
    });
  }
}
