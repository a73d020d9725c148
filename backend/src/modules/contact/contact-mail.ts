import type { OutgoingMail } from '../../infra/mail/mail.service.js';
import type { ContactMessage } from './contact-message.entity.js';

/** The copy staff receive; replying goes straight to the sender. */
export function staffCopy(message: ContactMessage, staffAddress: string): OutgoingMail {
  return {
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

/** The acknowledgement the sender receives. */
export function acknowledgement(message: ContactMessage): OutgoingMail {
  return {
    to: message.email,
    subject: `We received your message: ${message.subject}`,
    text: [
      `Hello ${message.name},`,
      '',
      'Thank you for contacting Fieldmarket. Our team replies within 24 hours.',
      `Your reference is ${message.id}.`,
      '',
      'Your message:',
      message.message
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n'),
      '',
      'The Fieldmarket team',
    ].join('\n'),
  };
}
