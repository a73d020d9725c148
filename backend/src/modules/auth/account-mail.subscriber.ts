import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import type { DomainEvent, DomainEventName } from '../../events/domain-events.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { User } from '../users/user.entity.js';
import { EmailTokens } from './email-tokens.service.js';

/**
 * The account's e-mails. Links are made here, in the job, so the token exists only in the mail
 * (the outbox keeps the event, never a secret). Each mail's key names its event, so a repeat after
 * a crash carries the same Message-ID.
 */
@Injectable()
export class AccountMailSubscriber {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(EmailTokens) private readonly tokens: EmailTokens,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @OnDomainEvent('user.registered', { name: 'account.send-verification', queue: 'mail' })
  async welcome(event: DomainEvent<'user.registered'>): Promise<void> {
    await this.sendVerification(event);
  }

  @OnDomainEvent('user.verification-requested', { name: 'account.resend-verification', queue: 'mail' })
  async resend(event: DomainEvent<'user.verification-requested'>): Promise<void> {
    await this.sendVerification(event);
  }

  private async sendVerification(event: DomainEvent<'user.registered' | 'user.verification-requested'>): Promise<void> {
    const user = await this.recipient(event);
    if (!user || user.emailVerifiedAt) return;
    const link = this.link('/verify-email', await this.tokens.issue(user, 'verify-email'));
    await this.send(event, user, 'verify', 'Confirm your email address for Fieldmarket', [
      `Hello ${user.fullName},`,
      '',
      'Welcome to Fieldmarket. Please confirm your email address by opening this link:',
      link,
      '',
      'The link works once, within 48 hours. Until then you can browse and manage your profile; posting listings and messaging sellers need a confirmed address.',
      '',
      'If you did not create an account, ignore this e-mail: nothing happens without the link.',
    ]);
  }

  @OnDomainEvent('user.signup-repeated', { name: 'account.tell-existing-owner', queue: 'mail' })
  async signUpRepeated(event: DomainEvent<'user.signup-repeated'>): Promise<void> {
    const user = await this.recipient(event);
    if (!user) return;
    await this.send(event, user, 'signup-repeated', 'You already have a Fieldmarket account', [
      `Hello ${user.fullName},`,
      '',
      'Someone (probably you) tried to create a Fieldmarket account with this address, which already has one.',
      `Sign in: ${this.config.publicUrl}/signin`,
      `Forgotten your password? Reset it: ${this.config.publicUrl}/signin?reset=1`,
      '',
      'If it was not you, you can ignore this e-mail: your account is unchanged.',
    ]);
  }

  @OnDomainEvent('user.password-reset-requested', { name: 'account.send-password-reset', queue: 'mail' })
  async passwordReset(event: DomainEvent<'user.password-reset-requested'>): Promise<void> {
    const user = await this.recipient(event);
    if (!user) return;
    const link = this.link('/reset-password', await this.tokens.issue(user, 'reset-password'));
    await this.send(event, user, 'reset', 'Reset your Fieldmarket password', [
      `Hello ${user.fullName},`,
      '',
      'Open this link to choose a new password:',
      link,
      '',
      'The link works once, within an hour. If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ]);
  }

  @OnDomainEvent('user.password-changed', { name: 'account.notify-password-changed', queue: 'mail' })
  async passwordChanged(event: DomainEvent<'user.password-changed'>): Promise<void> {
    const user = await this.recipient(event);
    if (!user) return;
    await this.send(event, user, 'password-changed', 'Your Fieldmarket password was changed', [
      `Hello ${user.fullName},`,
      '',
      `Your password was ${event.payload.how === 'reset' ? 'reset from a link sent to this address' : 'changed from your profile'}, and every other session was signed out.`,
      `If this was not you, reset your password now: ${this.config.publicUrl}/signin?reset=1`,
    ]);
  }

  @OnDomainEvent('user.two-factor-changed', { name: 'account.notify-two-factor-changed', queue: 'mail' })
  async twoFactorChanged(event: DomainEvent<'user.two-factor-changed'>): Promise<void> {
    const user = await this.recipient(event);
    if (!user) return;
    const on = event.payload.enabled;
    await this.send(event, user, 'two-factor', `Two-factor sign-in was turned ${on ? 'on' : 'off'}`, [
      `Hello ${user.fullName},`,
      '',
      on
        ? 'Two-factor sign-in is now on: signing in asks for a code from your authenticator app. Keep your recovery codes somewhere safe.'
        : 'Two-factor sign-in is now off: signing in asks only for your password.',
      `If this was not you, reset your password and review your account: ${this.config.publicUrl}/profile`,
    ]);
  }

  private async recipient(event: DomainEvent<DomainEventName>): Promise<User | null> {
    const { userId } = event.payload as { userId: string };
    return this.em.findOne(User, { id: userId, deletedAt: null });
  }

  private link(path: string, token: string): string {
    return `${this.config.publicUrl}${path}?token=${encodeURIComponent(token)}`;
  }

  private send(event: DomainEvent<DomainEventName>, user: User, kind: string, subject: string, lines: string[]): Promise<void> {
    return this.mail.send({
      key: `user-${user.id}.${kind}.${event.id}`,
      to: user.email,
      subject,
      text: [...lines, '', 'The Fieldmarket team'].join('\n'),
    });
  }
}
