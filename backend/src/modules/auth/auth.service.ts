import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, ForbiddenException, Inject, Injectable, UnauthorizedException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientKey } from '../../common/api-rate-limit.js';
import { FieldValidationException } from '../../common/errors.js';
import { ACCOUNT_TEXTS } from '../../contracts/account.js';
import { STAFF_TEXTS } from '../../contracts/staff.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter, waitText } from '../../infra/rate-limit/rate-limiter.js';
import { User } from '../users/user.entity.js';
import type { SignInRequest, SignUpRequest } from './dto/auth.request.js';
import { EmailTokens } from './email-tokens.service.js';
import { Passwords } from './passwords.js';
import { Sessions } from './sessions.service.js';
import { TwoFactor } from './two-factor.service.js';

export type SignInResult = { status: 'signed-in'; user: User } | { status: 'two-factor-required' };

const MINUTE = 60;
/** Attempts per client address, whoever they are for: stops one machine trying many accounts. */
export const SIGN_IN_PER_ADDRESS = { limit: 30, windowSeconds: 15 * MINUTE };
/**
 * Attempts for one account from one client address, until one succeeds: one machine guessing one
 * account. Counted per pair, so strangers' wrong guesses never lock the owner out of their own
 * connection.
 */
export const SIGN_INS_PER_ACCOUNT_AND_ADDRESS = { limit: 10, windowSeconds: 15 * MINUTE };
/**
 * Attempts for one account from anywhere, not cleared by a success: bounds an attacker who rotates
 * addresses. Ten times the pair's limit over four times its window, so it takes a deliberate flood
 * (a hundred guesses in an hour), not a few mistakes, to make the owner wait.
 */
export const SIGN_INS_PER_ACCOUNT = { limit: 100, windowSeconds: 60 * MINUTE };
export const SIGN_UPS_PER_ADDRESS = { limit: 10, windowSeconds: 60 * MINUTE };
export const RESET_REQUESTS_PER_ADDRESS = { limit: 10, windowSeconds: 60 * MINUTE };
/** Reset links one account receives per hour, however many people ask for them. */
export const RESET_MAILS_PER_ACCOUNT = { limit: 3, windowSeconds: 60 * MINUTE };
export const VERIFICATION_MAILS_PER_ACCOUNT = { limit: 3, windowSeconds: 60 * MINUTE };

const tooManySignIns = (wait: number) => `Too many sign-in attempts. Please wait ${waitText(wait)} and try again.`;

/**
 * Sign-up, sign-in and the links sent by e-mail. Answers never tell whether an address has an
 * account: sign-up always says the same, a wrong password and an unknown address get the same
 * message after the same work, and a reset request always succeeds.
 */
@Injectable()
export class AuthService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(Passwords) private readonly passwords: Passwords,
    @Inject(Sessions) private readonly sessions: Sessions,
    @Inject(EmailTokens) private readonly emailTokens: EmailTokens,
    @Inject(TwoFactor) private readonly twoFactor: TwoFactor,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
  ) {}

  async signUp(request: SignUpRequest, clientIp: string): Promise<void> {
    await this.limits.consume(
      { key: `signup:ip:${clientKey(clientIp)}`, ...SIGN_UPS_PER_ADDRESS },
      (wait) => `Too many accounts created from your connection. Please wait ${waitText(wait)} and try again.`,
    );
    if (this.passwords.isCommon(request.password)) throw new FieldValidationException({ password: ACCOUNT_TEXTS.commonPassword });
    const passwordHash = await this.passwords.hash(request.password);
    await this.em.transactional(async (tx) => {
      // Serialises sign-ups for one address, so two at once cannot both create it.
      await tx
        .getConnection()
        .execute(`select pg_advisory_xact_lock(hashtext(?))`, [`signup:${request.email}`], 'all', tx.getTransactionContext());
      const existing = await tx.findOne(User, { email: request.email });
      if (existing) {
        // Tell the owner, not the person signing up: the answer stays the same either way.
        if (!existing.deletedAt) this.events.publish(tx, 'user.signup-repeated', { userId: existing.id });
        return;
      }
      const user = tx.create(User, {
        email: request.email,
        fullName: request.name,
        location: request.location || undefined,
        passwordHash,
        provider: 'password',
      });
      tx.persist(user);
      this.events.publish(tx, 'user.registered', { userId: user.id });
    });
  }

  async signIn(credentials: SignInRequest, request: FastifyRequest, reply: FastifyReply): Promise<SignInResult> {
    const address = clientKey(request.ip);
    const perPair = { key: `signin:account-ip:${credentials.email}:${address}`, ...SIGN_INS_PER_ACCOUNT_AND_ADDRESS };
    // Each counted before the password is checked, atomically, so parallel guesses cannot slip past.
    await this.limits.consume({ key: `signin:ip:${address}`, ...SIGN_IN_PER_ADDRESS }, tooManySignIns);
    await this.limits.consume(perPair, tooManySignIns);
    await this.limits.consume({ key: `signin:account:${credentials.email}`, ...SIGN_INS_PER_ACCOUNT }, tooManySignIns);
    const user = await this.em.findOne(User, { email: credentials.email, deletedAt: null });
    // Verified even when there is no account (against a decoy), so both take the same time.
    if (!(await this.passwords.verify(user?.passwordHash, credentials.password)) || !user) {
      throw new UnauthorizedException(ACCOUNT_TEXTS.wrongCredentials);
    }
    // Only this address's count: the account-wide one stays, so an attacker's budget is not renewed by the owner's sign-in.
    await this.limits.reset(perPair.key);
    return this.completeSignIn(user, request, reply);
  }

  /**
   * The step after the user proved who they are (a password, or Google): a session, or, when the
   * account has two-factor sign-in, a challenge bound to this browser that the code must answer.
   */
  async completeSignIn(user: User, request: FastifyRequest, reply: FastifyReply): Promise<SignInResult> {
    // After the password (or Google) check, so the message tells nothing to someone who only knows the address.
    if (user.suspendedAt) throw new ForbiddenException(STAFF_TEXTS.suspended);
    if (this.twoFactor.isEnabledFor(user)) {
      await this.twoFactor.beginChallenge(user, reply);
      return { status: 'two-factor-required' };
    }
    const em = this.em.fork();
    const account = await em.findOneOrFail(User, { id: user.id });
    const token = this.sessions.start(em, account, request);
    await em.flush();
    this.sessions.setCookies(reply, token);
    return { status: 'signed-in', user: account };
  }

  async verifyEmail(token: unknown): Promise<void> {
    const verified = await this.em.transactional(async (tx) => {
      const userId = await this.emailTokens.consume(tx, token, 'verify-email');
      if (!userId) return false;
      const user = await tx.findOneOrFail(User, { id: userId });
      user.emailVerifiedAt ??= new Date();
      await this.emailTokens.retire(tx, userId, 'verify-email');
      return true;
    });
    if (!verified) throw new BadRequestException(ACCOUNT_TEXTS.verificationLinkInvalid);
  }

  async resendVerification(user: User): Promise<void> {
    if (user.emailVerifiedAt) return;
    await this.limits.consume(
      { key: `verify-mail:account:${user.id}`, ...VERIFICATION_MAILS_PER_ACCOUNT },
      (wait) => `We have sent several links already. Please check your inbox and spam folder, or try again in ${waitText(wait)}.`,
    );
    await this.em.transactional(async (tx) => this.events.publish(tx, 'user.verification-requested', { userId: user.id }));
  }

  async requestPasswordReset(email: string, clientIp: string): Promise<void> {
    await this.limits.consume(
      { key: `reset:ip:${clientKey(clientIp)}`, ...RESET_REQUESTS_PER_ADDRESS },
      (wait) => `Too many reset requests from your connection. Please wait ${waitText(wait)} and try again.`,
    );
    const user = await this.em.findOne(User, { email, deletedAt: null });
    if (!user) return;
    try {
      await this.limits.consume({ key: `reset:account:${user.id}`, ...RESET_MAILS_PER_ACCOUNT }, () => 'enough links sent');
    } catch {
      return; // Enough links are on their way; the answer stays the same, so it says nothing about the account.
    }
    await this.em.transactional(async (tx) => this.events.publish(tx, 'user.password-reset-requested', { userId: user.id }));
  }

  /** Refuses a reset link that would be refused on use (unknown, used, expired, its account deleted), without using it. */
  async checkResetLink(token: unknown): Promise<void> {
    const userId = await this.emailTokens.peek(token, 'reset-password');
    const user = userId ? await this.em.fork().findOne(User, { id: userId }) : null;
    if (!user || user.deletedAt) throw new BadRequestException(ACCOUNT_TEXTS.invalidResetLink);
  }

  /** Sets the new password from a reset link and ends every session; two-factor still applies at the next sign-in. */
  async resetPassword(token: unknown, password: string): Promise<void> {
    if (this.passwords.isCommon(password)) throw new FieldValidationException({ password: ACCOUNT_TEXTS.commonPassword });
    const passwordHash = await this.passwords.hash(password);
    const done = await this.em.transactional(async (tx) => {
      const userId = await this.emailTokens.consume(tx, token, 'reset-password');
      if (!userId) return false;
      const user = await tx.findOneOrFail(User, { id: userId });
      if (user.deletedAt) return false;
      user.passwordHash = passwordHash;
      // The link reached the mailbox, so the address works.
      user.emailVerifiedAt ??= new Date();
      await this.emailTokens.retire(tx, userId, 'reset-password');
      await this.sessions.endAll(userId, { em: tx });
      this.events.publish(tx, 'user.password-changed', { userId, how: 'reset' });
      return true;
    });
    if (!done) throw new BadRequestException(ACCOUNT_TEXTS.invalidResetLink);
  }
}
