/**
 * When the recipient of a message sees a safety notice beside it (issue 23 §5): the message carries
 * UK bank details, a link to pay someone outside Fieldmarket, or asks to carry on somewhere else
 * (WhatsApp, a phone number, an e-mail address). The message is never blocked and nobody reads it:
 * the server applies these patterns once, when the message is stored, and keeps the answer on it.
 */

/* What the recipient reads beside such a message is MESSAGING_TEXTS.safetyNotice (contracts/messaging.ts). */

/** Hosts of "pay me" links (checked as host, or host and path start); one list, kept short on purpose. */
export const PAYMENT_LINK_HOSTS = [
  'paypal.me',
  'paypal.com/paypalme',
  'monzo.me',
  'revolut.me',
  'wise.com/pay',
  'buy.stripe.com',
  'pay.sumup.com',
  'cash.app',
  'venmo.com',
] as const;

export type SafetyReason = 'bank-details' | 'payment-link' | 'off-platform';

/** Not part of a longer number or word on either side. */
const ALONE_BEFORE = '(?<![\\w£$.,/-])';
const ALONE_AFTER = '(?![\\w/]|[.,]\\d)';

/** A sort code written 12-34-56, 12 34 56 or 123456 (`group`: the number of its separator's capture group). */
const sortCode = (group: number) => `${ALONE_BEFORE}\\d{2}([- ]?)\\d{2}\\${group}\\d{2}${ALONE_AFTER}`;
/** A UK account number: eight digits, alone. */
const ACCOUNT_NUMBER = `${ALONE_BEFORE}\\d{8}${ALONE_AFTER}`;
/** How close the two must be to count as bank details (characters between them). */
const NEAR = 40;
const BANK_DETAILS = new RegExp(`${sortCode(1)}\\D{0,${NEAR}}${ACCOUNT_NUMBER}|${ACCOUNT_NUMBER}\\D{0,${NEAR}}${sortCode(2)}`, 'u');
/** "sort code" named with six digits after it is enough on its own. */
const NAMED_SORT_CODE = /\bsort[\s-]?code\b\D{0,12}\d{2}[- ]?\d{2}[- ]?\d{2}(?!\d)/iu;

/**
 * A UK phone number: 07… mobiles and 01/02/03/08 numbers (10 or 11 digits), or +44 / 0044; spaces,
 * dashes and brackets between groups. Not after "UK " (an ear tag like UK 012345 600123) or inside a
 * longer number.
 */
const PHONE = /(?<![\w£$.,/-])(?<!UK\s?)(?:(?:\+|00)44\s?(?:\(0\)\s?)?|0)(?:[1-3]|7|8)(?:[\s-]?\d){8,9}(?![\w/]|[.,]\d)/iu;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/u;
/** Asking to move the conversation elsewhere. */
const OFF_PLATFORM =
  /\b(?:whats\s?app|telegram|signal\s+me|(?:text|call|ring|message|email|e-mail|contact)\s+me\s+(?:on|at|directly)|my\s+(?:mobile|number|whatsapp|e-?mail)\s+is)\b/iu;

function hasPaymentLink(text: string): boolean {
  const lower = text.toLowerCase();
  return PAYMENT_LINK_HOSTS.some((host) => {
    const at = new RegExp(`(?:^|[^\\w.-])(?:https?://)?(?:www\\.)?${host.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'u');
    return at.test(lower);
  });
}

/** Why a message needs the safety notice, in a fixed order; empty when it does not. */
export function safetyReasons(text: string): SafetyReason[] {
  const reasons: SafetyReason[] = [];
  if (BANK_DETAILS.test(text) || NAMED_SORT_CODE.test(text)) reasons.push('bank-details');
  if (hasPaymentLink(text)) reasons.push('payment-link');
  if (PHONE.test(text) || EMAIL.test(text) || OFF_PLATFORM.test(text)) reasons.push('off-platform');
  return reasons;
}

export function needsSafetyNotice(text: string): boolean {
  return safetyReasons(text).length > 0;
}
