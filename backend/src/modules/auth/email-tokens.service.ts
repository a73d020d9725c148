import { LockMode } from '@mikro-orm/core';
import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import type { User } from '../users/user.entity.js';
import { EmailToken, type EmailTokenPurpose } from './email-token.entity.js';
import { newToken, tokenHash } from './secrets.js';

/** How long a link sent by e-mail works. */
export const EMAIL_TOKEN_TTL_MS: Record<EmailTokenPurpose, number> = {
  'verify-email': 48 * 3600 * 1000,
  'reset-password': 3600 * 1000,
};

/** Single-use, expiring links sent by e-mail; the token goes into the mail, only its hash into the database. */
@Injectable()
export class EmailTokens {
  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  async issue(user: User, purpose: EmailTokenPurpose): Promise<string> {
    const token = newToken();
    const em = this.em.fork();
    em.persist(
      em.create(EmailToken, {
        tokenHash: tokenHash(token),
        user: user.id,
        purpose,
        createdAt: new Date(),
        expiresAt: new Date(Date.now() + EMAIL_TOKEN_TTL_MS[purpose]),
      }),
    );
    await em.flush();
    return token;
  }

  /**
   * Marks the token used, in `em` (the caller's transaction), and returns its user's id; null for
   * a token that is unknown, used, expired or of another purpose. Row-locked, so two requests with
   * the same link cannot both use it.
   */
  async consume(em: EntityManager, token: unknown, purpose: EmailTokenPurpose): Promise<string | null> {
    const found = await this.usable(em, token, purpose, LockMode.PESSIMISTIC_WRITE);
    if (!found) return null;
    found.usedAt = new Date();
    return found.user.id;
  }

  /** The user id a token would give, as consume, without using it: a page checks its link before showing a form. */
  async peek(token: unknown, purpose: EmailTokenPurpose): Promise<string | null> {
    return (await this.usable(this.em.fork(), token, purpose))?.user.id ?? null;
  }

  /** Other unused links of the same purpose stop working (a password reset, a verified address). */
  async retire(em: EntityManager, userId: string, purpose: EmailTokenPurpose): Promise<void> {
    await em.nativeUpdate(EmailToken, { user: userId, purpose, usedAt: null }, { usedAt: new Date() });
  }

  private async usable(em: EntityManager, token: unknown, purpose: EmailTokenPurpose, lockMode?: LockMode): Promise<EmailToken | null> {
    if (typeof token !== 'string' || token.length === 0 || token.length > 100) return null;
    const found = await em.findOne(EmailToken, { tokenHash: tokenHash(token), purpose }, lockMode ? { lockMode } : {});
    return found && !found.usedAt && found.expiresAt > new Date() ? found : null;
  }
}
