import type { OutgoingMail } from '../../infra/mail/mail.service.js';
import type { ContactMessage } from './contact-message.entity.js';

/** The copy staff receive; replying goes straight to the sender. */
export function staffCopy(message: ContactMessage, staffAddress: string): OutgoingMail {
  return {
    // Derived from the message and the kind of mail, so a re-sent copy carries the same
    // Message-ID and receivers drop the repeat (delivery is at least once).
    key: `contact-${message.id}.staff`,
    to: staffAddress,
    // An address object: nodemailer quotes the name, so "Jane, x@evil <x@evil>" cannot add recipients.
    replyTo: { name: message.name, address: message.email },
    subject: `[Contact] ${message.subject}`,
    text: [
      `From: ${message.name} <${message.email}>`,
      `Received: ${message.createdAt.toISOString()}`,
      `Reference: ${message.id}`,
      '',
      message.message,
    ].join('\n'),
  };
}

/**
 * The acknowledgement the sender receives: only our own words and a reference. It repeats
 * nothing the sender typed, so the form cannot be used to send arbitrary text from our domain.
 */
export function acknowledgement(message: ContactMessage): OutgoingMail {
  const reference = message.id.slice(0, 8).toUpperCase();
  return {
    key: `contact-${message.id}.acknowledgement`,
    to: message.email,
    subject: `We received your message (reference ${reference})`,
    text: [
      'Hello,',
      '',
      'Thank you for contacting Fieldmarket. We have received your message and our team replies within 24 hours.',
      `Your reference is ${reference}; please quote it if you write to us again about the same matter.`,
      '',
      'If you did not write to us, you can ignore this e-mail.',
      '',
      'The Fieldmarket team',
    ].join('\n'),
  };
}
