import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { clientKey } from '../../common/api-rate-limit.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { Realtime } from '../../infra/realtime/realtime.js';
import { User } from '../users/user.entity.js';
import { newToken, tokenHash } from './secrets.js';
import { Session } from './session.entity.js';

/** The session token: httpOnly, so page script can never read it. */
export const SESSION_COOKIE = 'fm_session';
/**
 * A hint, not a secret: tells the pages' small scripts that someone is signed in, so they load the
 * signed-in header (bells, menu) and visitors load none of it. It grants nothing.
 */
export const SIGNED_IN_COOKIE = 'fm_signed_in';

/** A session lasts this long after its last use. */
export const SESSION_DAYS = 30;
/** Sliding the expiry is a write: done at most this often per session. */
const TOUCH_EVERY_MS = 5 * 60_000;

export interface Authenticated {
  session: Session;
  user: User;
}

/** Server-side sessions: an opaque token in a cookie, its hash in `user_session`. */
@Injectable()
export class Sessions {
  private readonly secureCookies: boolean;

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(Realtime) private readonly realtime: Realtime,
  ) {
    this.secureCookies = config.publicUrl.startsWith('https:');
  }

  /**
   * Creates a session for `user` in `em` (committed with the caller's work); returns the token for
   * the cookie. `secondFactor`: the browser answered a two-factor challenge to get it.
   */
  start(em: EntityManager, user: User, request: FastifyRequest, options: { secondFactor?: boolean } = {}): string {
    const token = newToken();
    em.persist(
      em.create(Session, {
        tokenHash: tokenHash(token),
        user,
        createdAt: new Date(),
        lastSeenAt: new Date(),
        authenticatedAt: new Date(),
        expiresAt: daysFromNow(SESSION_DAYS),
        userAgent: String(request.headers['user-agent'] ?? '').slice(0, 200),
        network: networkOf(request.ip),
        secondFactorAt: options.secondFactor ? new Date() : undefined,
      }),
    );
    user.lastActiveAt = this.clock.now();
    return token;
  }

  /** The session a token belongs to, with its user; null when unknown, expired, or the account is gone or suspended. */
  async resolve(token: string | undefined): Promise<Authenticated | null> {
    if (!token || token.length > 100) return null;
    const em = this.em.fork();
    const session = await em.findOne(Session, { tokenHash: tokenHash(token) }, { populate: ['user'] });
    if (!session || session.expiresAt <= new Date()) return null;
    const user = session.user.getEntity();
    if (user.deletedAt || user.suspendedAt) return null;
    if (Date.now() - session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      session.lastSeenAt = new Date();
      session.expiresAt = daysFromNow(SESSION_DAYS);
      user.lastActiveAt = this.clock.now();
      await em.flush();
    }
    return { session, user };
  }

  /** A new token for the same session (at refresh, and when the account's protection changes). */
  async rotate(sessionId: string): Promise<string | null> {
    const token = newToken();
    const updated = await this.em
      .fork()
      .nativeUpdate(
        Session,
        { id: sessionId, expiresAt: { $gt: new Date() } },
        { tokenHash: tokenHash(token), lastSeenAt: new Date(), expiresAt: daysFromNow(SESSION_DAYS) },
      );
    return updated === 1 ? token : null;
  }

  /** Records, in `em`, that the session passed a second factor (the code that turned two-factor on there). */
  async passedSecondFactor(em: EntityManager, sessionId: string): Promise<void> {
    await em.nativeUpdate(Session, { id: sessionId }, { secondFactorAt: new Date() });
  }

  /** Forgets, in `em`, that the user's sessions passed a second factor (two-factor turned off). */
  async forgetSecondFactor(em: EntityManager, userId: string): Promise<void> {
    await em.nativeUpdate(Session, { user: userId }, { secondFactorAt: null });
  }

  /** Ends the session; the live connections it opened close with it. */
  async end(sessionId: string): Promise<void> {
    await this.em.fork().nativeDelete(Session, { id: sessionId });
    this.realtime.disconnectSessions([sessionId]);
  }

  /**
   * Ends every session of the user (but `except`), in `em` when given so it commits with the
   * caller's change, and closes the live connections they opened. (Closed before that commit, a
   * socket retries after 2 s, by when its session is gone; were the change rolled back, it simply
   * reconnects.)
   */
  async endAll(userId: string, options: { except?: string; em?: EntityManager } = {}): Promise<number> {
    const em = options.em ?? this.em.fork();
    const where = { user: userId, ...(options.except ? { id: { $ne: options.except } } : {}) };
    const ending = await em.find(Session, where, { fields: ['id'] });
    const ended = await em.nativeDelete(Session, where);
    this.realtime.disconnectSessions(ending.map((session) => session.id));
    return ended;
  }

  async list(userId: string): Promise<Session[]> {
    return this.em.fork().find(Session, { user: userId, expiresAt: { $gt: new Date() } }, { orderBy: { lastSeenAt: 'desc' } });
  }

  setCookies(reply: FastifyReply, token: string): void {
    const options = { path: '/', sameSite: 'lax' as const, secure: this.secureCookies, maxAge: SESSION_DAYS * 24 * 3600 };
    void reply.setCookie(SESSION_COOKIE, token, { ...options, httpOnly: true });
    void reply.setCookie(SIGNED_IN_COOKIE, '1', { ...options, httpOnly: false });
  }

  clearCookies(reply: FastifyReply): void {
    for (const name of [SESSION_COOKIE, SIGNED_IN_COOKIE]) {
      void reply.clearCookie(name, { path: '/', sameSite: 'lax', secure: this.secureCookies });
    }
  }
}

function daysFromNow(days: number): Date {
  return new Date(Date.now() + days * 24 * 3600 * 1000);
}

/** The network, not the address: enough for "signed in from a new place?", less to hold about someone. */
export function networkOf(ip: string): string {
  const address = ip.startsWith('::ffff:') ? ip.slice(7) : ip;
  if (isIP(address) === 4) return `${address.split('.').slice(0, 3).join('.')}.0/24`;
  return isIP(address) === 6 ? clientKey(address) : '';
}
