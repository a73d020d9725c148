import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { AuthGuardAuthenticateOptions } from '@nestjs/passport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Profile } from 'passport-google-oauth20';
import { clientKey } from '../../../common/api-rate-limit.js';
import { TooManyRequestsException } from '../../../common/errors.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AppConfig } from '../../../config/env.js';
import type { GoogleSignInError } from '../../../contracts/account.js';
import { controlCharactersToSpaces } from '../../../contracts/text-rules.js';
import { DomainEvents } from '../../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../../infra/rate-limit/rate-limiter.js';
import { User } from '../../users/user.entity.js';
import type { AuthenticatedRequest } from '../access.js';
import { AuthService, SIGN_IN_PER_ADDRESS } from '../auth.service.js';
import { Session } from '../session.entity.js';
import { type GoogleFlow, safeRedirect, StateCookie, type StrategyRequest } from './google-state.js';
import { GOOGLE_STRATEGY, type GoogleStrategy, type StrategyOutcome } from './google-strategy.js';

export const GOOGLE_CALLBACK_PATH = '/api/auth/google/callback';
/** Where a sign-in goes when the browser asked for nowhere (SPEC §2 "Sign-in"). */
const DEFAULT_ROUTE = '/browse';

/** Who Google says the person is, checked and cut to what an account holds. */
interface GoogleIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
  picture: string | null;
}

type AccountMatch = { user: User } | { refused: GoogleSignInError; why: string };

/**
 * Sign-in with Google (OpenID Connect through passport-google-oauth20). `start` sends the browser
 * to Google with a state bound to it; `finish` checks that state, exchanges the code, reads the
 * profile, finds, links or creates the account and signs it in the way a password does
 * (AuthService.completeSignIn, so two-factor still applies). Both answer with where to send the
 * browser next: a page of this site, with `?error=` when something stopped it; never an error page.
 */
/** Which page a Google route answers with at once, without running the strategy. */
export interface GoogleAnswer {
  answer: string;
}

/** A run of the strategy GoogleAuthGuard is to make: what passport reads as `req`, and its options. */
export interface GooglePassportStep {
  request: StrategyRequest;
  options: AuthGuardAuthenticateOptions;
}

/** A request to a Google route: GoogleAuthGuard leaves here what the route answers from. */
export interface GoogleRequest extends AuthenticatedRequest {
  googleStep?: GoogleAnswer | StrategyOutcome;
  /** The guard's own run of passport (see GoogleAuthGuard). */
  passportRun?: unknown;
}

/**
 * Sign-in with Google (OpenID Connect through passport-google-oauth20 and @nestjs/passport). On
 * both routes `prepare` says whether the strategy runs (GoogleAuthGuard runs it), then the route
 * reads its outcome: `started` gives Google's address (the state cookie is set), `finish` finds,
 * links or creates the account and signs it in the way a password does (AuthService.completeSignIn,
 * so two-factor still applies). Both answer with where to send the browser next: a page of this
 * site, with `?error=` when something stopped it; never an error page.
 */
@Injectable()
export class GoogleSignIn {
  private readonly logger = new Logger('GoogleSignIn');
  private readonly secureCookies: boolean;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(GOOGLE_STRATEGY) private readonly strategy: GoogleStrategy | null,
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(AuthService) private readonly auth: AuthService,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(DomainEvents) private readonly events: DomainEvents,
  ) {
    this.secureCookies = config.publicUrl.startsWith('https:');
  }

  get configured(): boolean {
    return this.strategy !== null;
  }

  /** Before the strategy runs on either route: the page to answer with at once, or the run to make. */
  prepare(request: GoogleRequest, reply: FastifyReply): Promise<GoogleAnswer | GooglePassportStep> {
    return request.routeOptions.url === GOOGLE_CALLBACK_PATH ? this.prepareCallback(request, reply) : this.prepareStart(request, reply);
  }

  private async prepareStart(request: GoogleRequest, reply: FastifyReply): Promise<GoogleAnswer | GooglePassportStep> {
    if (!this.strategy) return { answer: signInError('google-not-configured') };
    const query = request.query as Record<string, unknown>;
    const intent = query.intent === 'reauth' ? 'reauth' : 'signin';
    // Re-authentication confirms the owner of a session: without one there is nothing to confirm.
    if (intent === 'reauth' && !request.auth) return { answer: signInError('session-expired') };
    const flow: GoogleFlow = { intent, redirect: intent === 'signin' ? safeRedirect(query.redirect) : null };
    return {
      request: { query: {}, stateCookie: new StateCookie(request, reply, this.secureCookies) },
      // Forced consent and offline access, as the spec's client asked for (SPEC §6).
      // An object as state makes passport-oauth2 hand it to CookieStateStore (its types say string).
      options: { state: flow as unknown as string, prompt: 'consent', accessType: 'offline' },
    };
  }

  private async prepareCallback(request: GoogleRequest, reply: FastifyReply): Promise<GoogleAnswer | GooglePassportStep> {
    const stateCookie = new StateCookie(request, reply, this.secureCookies);
    // One use, whatever happens next: the cookie is read by the strategy, and cleared in the answer.
    stateCookie.clear();
    if (!this.strategy) return { answer: signInError('google-not-configured') };
    try {
      await this.limits.consume({ key: `signin:ip:${clientKey(request.ip)}`, ...SIGN_IN_PER_ADDRESS }, () => 'too many sign-ins');
    } catch (error) {
      if (error instanceof TooManyRequestsException) return { answer: signInError('too-many-attempts') };
      throw error;
    }
    const query = callbackQuery(request.query);
    // "access_denied": the person pressed Cancel at Google. Nothing to exchange either way.
    if (query.error) return { answer: this.failed(`Google answered "${query.error}"`) };
    // Without a code passport would start a new sign-in; a callback without one is a failed one.
    if (!query.code) return { answer: this.failed('the callback carries neither a code nor an error') };
    return { request: { query, stateCookie }, options: {} };
  }

  /** GET /api/auth/google, after the guard: Google's authorization URL, or a page saying why not. */
  started(request: GoogleRequest): string {
    const step = request.googleStep;
    if (step && 'answer' in step) return step.answer;
    if (step?.kind === 'redirect') return step.url;
    this.logger.warn(
      `Google sign-in could not start: ${!step ? 'the guard did not run' : step.kind === 'success' ? 'unexpected success' : step.reason}`,
    );
    return signInError('google-failed');
  }

  /** GET /api/auth/google/callback, after the guard: signs in (or confirms the owner) and names the page to go to. */
  async finish(request: GoogleRequest, reply: FastifyReply): Promise<string> {
    try {
      return await this.finishFlow(request, reply);
    } catch (error) {
      // A browser navigation gets a page to go to, never an error document: logged and said in words.
      this.logger.error(`Google sign-in callback failed unexpectedly: ${String(error)}`);
      return signInError('google-failed');
    }
  }

  private async finishFlow(request: GoogleRequest, reply: FastifyReply): Promise<string> {
    const step = request.googleStep;
    if (step && 'answer' in step) return step.answer;
    if (step?.kind !== 'success')
      return this.failed(!step ? 'the guard did not run' : step.kind === 'redirect' ? 'unexpected redirect' : step.reason);
    const identity = identityOf(step.profile);
    if (!identity) return this.failed('Google’s profile has no usable subject');
    if (step.flow.intent === 'reauth') return this.reauthenticate(request, identity);

    const match = await this.accountFor(identity);
    if ('refused' in match) {
      this.logger.log(`Google sign-in refused: ${match.why}`);
      return signInError(match.refused);
    }
    // Two-factor on: the challenge cookie is set and the page the browser lands on shows the overlay.
    await this.auth.completeSignIn(match.user, request, reply);
    return step.flow.redirect ?? DEFAULT_ROUTE;
  }

  /**
   * The account of this Google identity: the one linked to it; else the one with its address,
   * linked now when both sides have proved the address; else a new one.
   */
  private async accountFor(identity: GoogleIdentity): Promise<AccountMatch> {
    return this.em.transactional(async (tx): Promise<AccountMatch> => {
      if (identity.email) {
        // The lock password sign-up takes for the address: one account per address, however they race.
        await tx
          .getConnection()
          .execute(`select pg_advisory_xact_lock(hashtext(?))`, [`signup:${identity.email}`], 'all', tx.getTransactionContext());
      }
      const linked = await tx.findOne(User, { googleSubject: identity.subject, deletedAt: null });
      if (linked) return { user: linked };
      if (!identity.email) return { refused: 'google-failed', why: 'Google gave no e-mail address for a new account' };

      const existing = await tx.findOne(User, { email: identity.email, deletedAt: null });
      if (existing) {
        // Linking hands the account to whoever holds this Google account: only when Google has
        // verified that they own the address...
        if (!identity.emailVerified) return { refused: 'google-email-unverified', why: 'the address is not verified by Google' };
        // ...and the account's owner proved it too (else anyone could have signed up with it and set the password).
        if (!existing.emailVerifiedAt) return { refused: 'google-account-unconfirmed', why: 'the account never confirmed its address' };
        if (existing.googleSubject) return { refused: 'google-linked-elsewhere', why: 'the account is linked to another Google account' };
        existing.googleSubject = identity.subject;
        existing.avatarUrl ??= identity.picture ?? undefined;
        return { user: existing };
      }

      const user = tx.create(User, {
        email: identity.email,
        emailVerifiedAt: identity.emailVerified ? new Date() : undefined,
        googleSubject: identity.subject,
        provider: 'google',
        fullName: identity.name ?? (identity.email.split('@')[0]?.slice(0, 100) || 'User'),
        avatarUrl: identity.picture ?? undefined,
      });
      tx.persist(user);
      // Google confirmed the address: nothing to confirm. Otherwise the usual confirmation link.
      if (!identity.emailVerified) this.events.publish(tx, 'user.registered', { userId: user.id });
      return { user };
    });
  }

  /** A signed-in account proves again it is its owner (before deleting it): the same Google account, just now. */
  private async reauthenticate(request: AuthenticatedRequest, identity: GoogleIdentity): Promise<string> {
    const current = request.auth;
    if (!current) return signInError('session-expired');
    if (!current.user.googleSubject || current.user.googleSubject !== identity.subject) {
      this.logger.log('Google re-authentication refused: another Google account');
      return '/profile?error=google-reauth-mismatch';
    }
    await this.em.fork().nativeUpdate(Session, { id: current.session.id }, { authenticatedAt: new Date() });
    return '/profile?reauthenticated=1';
  }

  private failed(reason: string): string {
    this.logger.warn(`Google sign-in failed: ${reason}`);
    return signInError('google-failed');
  }
}

function signInError(code: GoogleSignInError): string {
  return `/signin?error=${code}`;
}

/** The callback's parameters as single strings (a repeated parameter is an array: not taken). */
function callbackQuery(raw: FastifyRequest['query']): Record<string, string> {
  const query: Record<string, string> = {};
  for (const name of ['code', 'state', 'error', 'error_description']) {
    const value = (raw as Record<string, unknown>)[name];
    if (typeof value === 'string' && value.length > 0 && value.length <= 2000) query[name] = value;
  }
  return query;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function identityOf(profile: Profile): GoogleIdentity | null {
  if (typeof profile.id !== 'string' || profile.id.length === 0 || profile.id.length > 255) return null;
  const address = profile.emails?.[0];
  const email = typeof address?.value === 'string' ? address.value.trim().toLowerCase() : '';
  const verified = address?.verified as unknown;
  const picture = profile.photos?.[0]?.value;
  return {
    subject: profile.id,
    email: email.length <= 254 && EMAIL.test(email) ? email : null,
    emailVerified: verified === true || verified === 'true',
    name: oneLine(profile.displayName, 100),
    picture: typeof picture === 'string' && picture.startsWith('https://') && picture.length <= 500 ? picture : null,
  };
}

/** A name as the profile holds it: one line, no control characters, at most `max` characters; null when empty. */
function oneLine(value: unknown, max: number): string | null {
  if (typeof value !== 'string') return null;
  const text = controlCharactersToSpaces(value).replace(/\s+/g, ' ').trim().slice(0, max).trim();
  return text || null;
}
