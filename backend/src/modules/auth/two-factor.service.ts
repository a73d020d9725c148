import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, Inject, Injectable, type OnModuleInit, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';
import { toDataURL } from 'qrcode';
import { clientKey } from '../../common/api-rate-limit.js';
import { TooManyRequestsException } from '../../common/errors.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { ACCOUNT_TEXTS } from '../../contracts/account.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { loadSecretBoxKey, SecretBox } from '../../infra/crypto/secret-box.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter, waitText } from '../../infra/rate-limit/rate-limiter.js';
import { User } from '../users/user.entity.js';
import { newToken, tokenHash } from './secrets.js';
import { Sessions } from './sessions.service.js';
import { LoginChallenge, RecoveryCode } from './two-factor.entities.js';

export const CHALLENGE_COOKIE = 'fm_2fa';
const CHALLENGE_MINUTES = 10;
export const CHALLENGE_TRIES = 5;
export const RECOVERY_CODE_COUNT = 10;
/** A code of the step before or after the current one is accepted (clocks drift). */
const TOLERANCE_SECONDS = 30;
/**
 * Codes tried for one account, at sign-in (across challenges: a new challenge after the password
 * grants no new tries) and to turn two-factor off, until a right one. Counted before the check.
 */
export const CODES_PER_ACCOUNT = { limit: 10, windowSeconds: 15 * 60 };
/** Codes tried from one client address, whatever the account. */
export const CODES_PER_ADDRESS = { limit: 20, windowSeconds: 15 * 60 };

const tooManyCodes = (wait: number) => `Too many incorrect codes. Please wait ${waitText(wait)} and try again.`;

/** What became of a code: accepted, refused as already used (a step not later than the last accepted), or wrong. */
type CodeCheck = 'accepted' | 'used' | 'invalid';

export interface TwoFactorAnswer {
  /** A code from the authenticator app. */
  code?: string;
  /** One of the recovery codes shown when two-factor sign-in was turned on. */
  recoveryCode?: string;
}

/**
 * Two-factor sign-in with time-based codes (TOTP): setup, turning it on and off, recovery codes,
 * and the challenge between the password and the session. Secrets are stored encrypted; a code is
 * accepted once.
 */
@Injectable()
export class TwoFactor implements OnModuleInit {
  private box!: SecretBox;
  private readonly secureCookies: boolean;

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(Sessions) private readonly sessions: Sessions,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {
    this.secureCookies = config.publicUrl.startsWith('https:');
  }

  async onModuleInit(): Promise<void> {
    this.box = new SecretBox(await loadSecretBoxKey(this.config.twoFactorKey, this.config.dataDir));
  }

  isEnabledFor(user: User): boolean {
    return Boolean(user.twoFactorEnabledAt && user.twoFactorSecret);
  }

  /** A new secret for the authenticator app; two-factor stays off until a code from it is verified. */
  async setup(userId: string): Promise<{ qrCode: string; secret: string; otpauthUrl: string }> {
    const em = this.em.fork();
    const user = await em.findOneOrFail(User, { id: userId });
    this.refuseGoogleAccounts(user);
    if (this.isEnabledFor(user)) throw new BadRequestException('Two-factor authentication is already on.');
    const secret = generateSecret();
    user.twoFactorSecret = this.box.seal(secret);
    user.twoFactorLastStep = undefined;
    await em.flush();
    const otpauthUrl = generateURI({ issuer: 'Fieldmarket', label: user.email, secret });
    return { qrCode: await toDataURL(otpauthUrl, { margin: 1, width: 240 }), secret, otpauthUrl };
  }

  /**
   * Turns two-factor on with a code from the app; returns the recovery codes (shown once) and the
   * session's new token. This session passed the second factor (it gave the code); every other
   * session of the account ends, so none signed in with the password alone outlives the change.
   */
  async enable(userId: string, code: string, sessionId: string): Promise<{ recoveryCodes: string[]; sessionToken: string | null }> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.em.transactional(async (tx) => {
      const user = await tx.findOneOrFail(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      this.refuseGoogleAccounts(user);
      if (this.isEnabledFor(user)) throw new BadRequestException('Two-factor authentication is already on.');
      if (!user.twoFactorSecret) throw new BadRequestException('Start the setup first: scan the QR code, then enter a code.');
      refuseUnlessAccepted(await this.acceptCode(tx, user, code));
      user.twoFactorEnabledAt = new Date();
      await this.sessions.passedSecondFactor(tx, sessionId);
      await this.sessions.endAll(userId, { except: sessionId, em: tx });
      await tx.nativeDelete(RecoveryCode, { user: userId });
      for (const recovery of codes) tx.persist(tx.create(RecoveryCode, { user: userId, codeHash: tokenHash(normalise(recovery)) }));
      this.events.publish(tx, 'user.two-factor-changed', { userId, enabled: true });
    });
    // Protection changed: the session gets a new token.
    return { recoveryCodes: codes, sessionToken: await this.sessions.rotate(sessionId) };
  }

  /** Turns two-factor off, proved with a code from the app or a recovery code (tries limited as at sign-in). */
  async disable(userId: string, answer: TwoFactorAnswer, sessionId: string, clientIp: string): Promise<{ sessionToken: string | null }> {
    const user = await this.em.fork().findOneOrFail(User, { id: userId });
    this.refuseGoogleAccounts(user);
    if (!this.isEnabledFor(user)) throw new BadRequestException('Two-factor authentication is not on.');
    await this.countCodeAttempt(userId, clientIp);
    await this.em.transactional(async (tx) => {
      const locked = await tx.findOneOrFail(User, { id: userId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
      if (!this.isEnabledFor(locked)) throw new BadRequestException('Two-factor authentication is not on.');
      refuseUnlessAccepted(await this.acceptAnswer(tx, locked, answer));
      locked.twoFactorEnabledAt = undefined;
      locked.twoFactorSecret = undefined;
      locked.twoFactorLastStep = undefined;
      await tx.nativeDelete(RecoveryCode, { user: userId });
      await this.sessions.forgetSecondFactor(tx, userId);
      this.events.publish(tx, 'user.two-factor-changed', { userId, enabled: false });
    });
    await this.limits.reset(codesOfAccount(userId));
    return { sessionToken: await this.sessions.rotate(sessionId) };
  }

  async remainingRecoveryCodes(userId: string): Promise<number> {
    return this.em.fork().count(RecoveryCode, { user: userId, usedAt: null });
  }

  /** After a correct password: the challenge this browser must answer (cookie) before it gets a session. */
  async beginChallenge(user: User, reply: FastifyReply): Promise<void> {
    const token = newToken();
    const em = this.em.fork();
    em.persist(
      em.create(LoginChallenge, {
        tokenHash: tokenHash(token),
        user: user.id,
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + CHALLENGE_MINUTES * 60_000),
        failedAttempts: 0,
      }),
    );
    await em.flush();
    void reply.setCookie(CHALLENGE_COOKIE, token, {
      path: '/api/auth',
      httpOnly: true,
      sameSite: 'lax',
      secure: this.secureCookies,
      maxAge: CHALLENGE_MINUTES * 60,
    });
  }

  /** Whether this browser has a challenge to answer (the overlay shows over any page). */
  async hasPendingChallenge(request: FastifyRequest): Promise<boolean> {
    const token = request.cookies?.[CHALLENGE_COOKIE];
    if (!token) return false;
    return (await this.em.fork().count(LoginChallenge, { tokenHash: tokenHash(token), expiresAt: { $gt: new Date() } })) > 0;
  }

  /**
   * Answers the challenge: a session (marked as having passed the second factor) for the right
   * code; five wrong codes end the challenge, and the account's and the address's limits bound the
   * codes tried across challenges.
   */
  async answerChallenge(request: FastifyRequest, reply: FastifyReply, answer: TwoFactorAnswer): Promise<User> {
    const token = request.cookies?.[CHALLENGE_COOKIE];
    const pending = token ? await this.em.fork().findOne(LoginChallenge, { tokenHash: tokenHash(token) }, { fields: ['user'] }) : null;
    // Counted before the code is checked, atomically, so parallel guesses cannot slip past.
    if (pending) await this.countCodeAttempt(pending.user.id, request.ip);
    const outcome = await this.em.transactional(async (tx) => {
      // Only the challenge is locked: the code's single use rests on acceptCode's conditional update.
      const challenge = token
        ? await tx.findOne(LoginChallenge, { tokenHash: tokenHash(token) }, { lockMode: LockMode.PESSIMISTIC_WRITE })
        : null;
      if (!challenge || challenge.expiresAt <= new Date() || challenge.failedAttempts >= CHALLENGE_TRIES) {
        if (challenge) tx.remove(challenge);
        return { kind: 'expired' as const };
      }
      const user = await tx.findOneOrFail(User, { id: challenge.user.id });
      const check = await this.acceptAnswer(tx, user, answer);
      if (check === 'accepted') {
        tx.remove(challenge);
        const sessionToken = this.sessions.start(tx, user, request, { secondFactor: true });
        return { kind: 'signed-in' as const, user, sessionToken };
      }
      challenge.failedAttempts += 1;
      return { kind: challenge.failedAttempts >= CHALLENGE_TRIES ? ('locked' as const) : check };
    });
    switch (outcome.kind) {
      case 'signed-in':
        await this.limits.reset(codesOfAccount(outcome.user.id));
        this.clearChallengeCookie(reply);
        this.sessions.setCookies(reply, outcome.sessionToken);
        return outcome.user;
      case 'used':
      case 'invalid':
        throw refusal(outcome.kind);
      case 'locked':
        this.clearChallengeCookie(reply);
        throw new TooManyRequestsException('Too many incorrect codes. Please sign in again.');
      case 'expired':
        this.clearChallengeCookie(reply);
        throw new UnauthorizedException('Your sign-in has expired. Please sign in again.');
    }
  }

  /** Cancel or close in the overlay: the browser stays signed out. */
  async cancelChallenge(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const token = request.cookies?.[CHALLENGE_COOKIE];
    if (token) await this.em.fork().nativeDelete(LoginChallenge, { tokenHash: tokenHash(token) });
    this.clearChallengeCookie(reply);
  }

  private clearChallengeCookie(reply: FastifyReply): void {
    void reply.clearCookie(CHALLENGE_COOKIE, { path: '/api/auth', sameSite: 'lax', secure: this.secureCookies });
  }

  private refuseGoogleAccounts(user: User): void {
    if (user.provider === 'google') throw new BadRequestException(ACCOUNT_TEXTS.twoFactorNotForGoogle);
  }

  /** One code tried for the account from this address: a 429 past either limit. */
  private async countCodeAttempt(userId: string, clientIp: string): Promise<void> {
    await this.limits.consume({ key: `two-factor:ip:${clientKey(clientIp)}`, ...CODES_PER_ADDRESS }, tooManyCodes);
    await this.limits.consume({ key: codesOfAccount(userId), ...CODES_PER_ACCOUNT }, tooManyCodes);
  }

  private async acceptAnswer(em: EntityManager, user: User, answer: TwoFactorAnswer): Promise<CodeCheck> {
    if (answer.code) return this.acceptCode(em, user, answer.code);
    if (answer.recoveryCode) {
      // Conditional update: of two requests with the same code, only one marks it used.
      const used = await em.nativeUpdate(
        RecoveryCode,
        { user: user.id, codeHash: tokenHash(normalise(answer.recoveryCode)), usedAt: null },
        { usedAt: new Date() },
      );
      return used === 1 ? 'accepted' : 'invalid';
    }
    return 'invalid';
  }

  /** A code from the app, for a time step later than the last one accepted (so it works once). */
  private async acceptCode(em: EntityManager, user: User, code: string): Promise<CodeCheck> {
    if (!user.twoFactorSecret || !/^\d{6}$/.test(code)) return 'invalid';
    const lastStep = user.twoFactorLastStep === undefined || user.twoFactorLastStep === null ? undefined : Number(user.twoFactorLastStep);
    const result = await verify({
      secret: this.box.open(user.twoFactorSecret),
      token: code,
      epoch: Math.floor(this.clock.now().getTime() / 1000),
      epochTolerance: TOLERANCE_SECONDS,
    }).catch(() => ({ valid: false as const }));
    if (!result.valid) return 'invalid';
    const { timeStep } = result as { timeStep: number }; // TOTP results carry the step they matched
    // A right code of a step already accepted: the person typed it again (e.g. the code that just turned two-factor on).
    if (lastStep !== undefined && timeStep <= lastStep) return 'used';
    // Recorded with a condition, so the same code sent twice at once is accepted once.
    // In the caller's transaction, which may hold the user's row.
    const recorded = await em
      .getConnection()
      .execute<{ affectedRows?: number }>(
        `update app_user set two_factor_last_step = ? where id = ? and (two_factor_last_step is null or two_factor_last_step < ?)`,
        [timeStep, user.id, timeStep],
        'run',
        em.getTransactionContext(),
      );
    if (recorded.affectedRows !== 1) return 'used'; // the same code, accepted a moment ago by another request
    user.twoFactorLastStep = String(timeStep);
    return 'accepted';
  }
}

const codesOfAccount = (userId: string) => `two-factor:account:${userId}`;

/** The 400 for a refused code, saying why. */
function refusal(check: Exclude<CodeCheck, 'accepted'>): BadRequestException {
  return new BadRequestException(check === 'used' ? ACCOUNT_TEXTS.codeAlreadyUsed : ACCOUNT_TEXTS.invalidCode);
}

function refuseUnlessAccepted(check: CodeCheck): void {
  if (check !== 'accepted') throw refusal(check);
}

/** Ten characters in five-character groups ("k3x9q-7m2pd"), 50 random bits each. */
function newRecoveryCode(): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyz23456789'; // no 0/o, 1/l/i to misread
  const chars = Array.from({ length: 10 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `${chars.slice(0, 5)}-${chars.slice(5)}`;
}

function normalise(code: string): string {
  return code.toLowerCase().replace(/[^a-z0-9]/g, '');
}
