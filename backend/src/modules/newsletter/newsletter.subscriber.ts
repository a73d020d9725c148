import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { NEWSLETTER_CONFIRM_HOURS } from '../../contracts/newsletter.js';
import { RETENTION } from '../../contracts/retention.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { MailService } from '../../infra/mail/mail.service.js';
import { OnDomainEvent } from '../../infra/queue/job-registry.js';
import { newToken, tokenHash } from '../auth/secrets.js';
import { daysBefore, RetentionRegistry } from '../retention/retention.registry.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { User } from '../users/user.entity.js';
import { newsletterMail } from './newsletter-mail.js';
import { NewsletterSubscription } from './newsletter-subscription.entity.js';

/**
 * The newsletter's mails (confirmation link, "already subscribed", welcome), its part of a
 * person's data (export, deletion, linking at sign-up) and its retention.
 */
@Injectable()
export class NewsletterSubscriber implements OnModuleInit {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(MailService) private readonly mail: MailService,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
    @Inject(RetentionRegistry) private readonly retention: RetentionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  onModuleInit(): void {
    this.userData.addPart({
      name: 'newsletter',
      exportFor: async (userId) => {
        const em = this.em.fork();
        const user = await em.findOne(User, { id: userId }, { fields: ['email'] });
        const rows = await em.find(NewsletterSubscription, { $or: [{ user: userId }, ...(user ? [{ email: user.email }] : [])] });
        return rows.map((s) => ({
          email: s.email,
          status: s.status,
          requested_at: s.requestedAt.toISOString(),
          confirmed_at: s.confirmedAt?.toISOString() ?? null,
          unsubscribed_at: s.unsubscribedAt?.toISOString() ?? null,
        }));
      },
    });
    this.retention.add({
      what: 'unconfirmed newsletter sign-ups',
      purge: (now) =>
        this.em.fork().nativeDelete(NewsletterSubscription, {
          status: 'pending',
          requestedAt: { $lt: daysBefore(now, RETENTION.newsletterUnconfirmedDays) },
        }),
    });
    this.retention.add({
      what: 'unsubscribed newsletter addresses',
      purge: (now) =>
        this.em.fork().nativeDelete(NewsletterSubscription, {
          status: 'unsubscribed',
          unsubscribedAt: { $lt: daysBefore(now, RETENTION.newsletterUnsubscribedDays) },
        }),
    });
  }

  /**
   * A pending address gets a new confirmation link (made here, so the token exists only in the
   * mail); a confirmed one is told it is already subscribed. Either way one mail, so nobody learns
   * from the form which addresses are on the list.
   */
  @OnDomainEvent('newsletter.subscription-requested', { name: 'newsletter.mail-confirmation', queue: 'mail' })
  async mailConfirmation(event: DomainEvent<'newsletter.subscription-requested'>): Promise<void> {
    const em = this.em.fork();
    const subscription = await em.findOne(NewsletterSubscription, { id: event.payload.subscriptionId });
    if (!subscription || subscription.status === 'unsubscribed') return;
    if (subscription.status === 'confirmed') {
      await this.mail.send(
        newsletterMail(this.config.publicUrl, subscription, {
          key: `newsletter-${subscription.id}.already-subscribed.${event.id}`,
          subject: 'You are already subscribed to the Fieldmarket newsletter',
          lines: [
            'Hello,',
            '',
            'Someone (probably you) asked to subscribe this address to the Fieldmarket newsletter. It is already subscribed, so nothing has changed.',
            '',
            'The Fieldmarket team',
          ],
        }),
      );
      return;
    }
    const token = newToken();
    subscription.confirmTokenHash = tokenHash(token);
    subscription.confirmExpiresAt = new Date(this.clock.now().getTime() + NEWSLETTER_CONFIRM_HOURS * 3600_000);
    await em.flush();
    await this.mail.send({
      // The token's fingerprint is part of the key: a repeat after a crash carries a new link, and must not be dropped as a duplicate.
      key: `newsletter-${subscription.id}.confirm.${subscription.confirmTokenHash.slice(0, 12)}`,
      to: subscription.email,
      subject: 'Confirm your subscription to the Fieldmarket newsletter',
      text: [
        'Hello,',
        '',
        'Please confirm that you want the Fieldmarket newsletter (news for UK farmers, landowners and dealers, at most twice a month) by opening this link:',
        `${this.config.publicUrl}/newsletter/confirm?token=${token}`,
        '',
        `The link works once, within ${NEWSLETTER_CONFIRM_HOURS} hours. If you did not ask to subscribe, ignore this e-mail: without the link nothing is sent to you.`,
        '',
        'The Fieldmarket team',
      ].join('\n'),
    });
  }

  @OnDomainEvent('newsletter.confirmed', { name: 'newsletter.mail-welcome', queue: 'mail' })
  async mailWelcome(event: DomainEvent<'newsletter.confirmed'>): Promise<void> {
    const subscription = await this.em.fork().findOne(NewsletterSubscription, { id: event.payload.subscriptionId, status: 'confirmed' });
    if (!subscription) return;
    await this.mail.send(
      newsletterMail(this.config.publicUrl, subscription, {
        key: `newsletter-${subscription.id}.welcome.${event.id}`,
        subject: 'Welcome to the Fieldmarket newsletter',
        lines: [
          'Hello,',
          '',
          'Your subscription is confirmed. You will hear from us at most twice a month: new features, seasonal buying and selling guides, and news from the marketplace.',
          '',
          'The Fieldmarket team',
        ],
      }),
    );
  }

  /** An account created with an address already on the list: the subscription becomes part of the account's data. */
  @OnDomainEvent('user.registered', { name: 'newsletter.link-registered-user', queue: 'maintenance' })
  async linkRegisteredUser(event: DomainEvent<'user.registered'>): Promise<void> {
    const em = this.em.fork();
    const user = await em.findOne(User, { id: event.payload.userId, deletedAt: null }, { fields: ['email'] });
    if (user) await em.nativeUpdate(NewsletterSubscription, { email: user.email, user: null }, { user: user.id });
  }

  @OnDomainEvent('user.deleted', { name: 'newsletter.forget-deleted-user', queue: 'maintenance' })
  async forgetDeletedUser(event: DomainEvent<'user.deleted'>): Promise<void> {
    await this.em.fork().nativeDelete(NewsletterSubscription, { user: event.payload.userId });
  }
}
