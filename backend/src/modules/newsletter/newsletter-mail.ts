import type { OutgoingMail } from '../../infra/mail/mail.service.js';
import type { NewsletterSubscription } from './newsletter-subscription.entity.js';

export function unsubscribeLink(publicUrl: string, subscription: NewsletterSubscription): string {
  return `${publicUrl}/newsletter/unsubscribe?token=${encodeURIComponent(subscription.unsubscribeToken)}`;
}

/**
 * Every mail sent to the list goes through here: it ends with the one-click unsubscribe link and
 * carries it in List-Unsubscribe, so mail apps offer their own Unsubscribe button.
 */
export function newsletterMail(
  publicUrl: string,
  subscription: NewsletterSubscription,
  mail: { key: string; subject: string; lines: string[] },
): OutgoingMail {
  const unsubscribe = unsubscribeLink(publicUrl, subscription);
  return {
    key: mail.key,
    to: subscription.email,
    subject: mail.subject,
    text: [
      ...mail.lines,
      '',
      '--',
      'You receive this because you subscribed to the Fieldmarket newsletter.',
      `Unsubscribe with one click: ${unsubscribe}`,
    ].join('\n'),
    listUnsubscribe: unsubscribe,
  };
}
