import { categoryLabel, FEEDBACK_CATEGORIES } from '../../contracts/feedback.js';
import type { OutgoingMail } from '../../infra/mail/mail.service.js';
import type { Feedback } from './feedback.entity.js';

/** The copy staff receive, with the response time the site promises for its category; replying goes to the sender. */
export function feedbackStaffCopy(feedback: Feedback, staffAddress: string): OutgoingMail {
  const category = categoryLabel(feedback.category);
  const hours = FEEDBACK_CATEGORIES.find((c) => c.value === feedback.category)?.responseHours ?? 48;
  return {
    // Derived from the feedback, so a re-sent copy carries the same Message-ID (delivery is at least once).
    key: `feedback-${feedback.id}.staff`,
    to: staffAddress,
    replyTo: { name: feedback.name, address: feedback.email },
    subject: `[Feedback] ${category}, rated ${feedback.rating}/5`,
    text: [
      `From: ${feedback.name} <${feedback.email}>${feedback.user ? ` (account ${feedback.user.id})` : ''}`,
      `Category: ${category} (we promise a response within ${hours} hours)`,
      `Rating: ${feedback.rating} of 5`,
      `Received: ${feedback.createdAt.toISOString()}`,
      `Reference: ${feedback.id}`,
      '',
      feedback.message,
    ].join('\n'),
  };
}
