/**
 * Forms of the details a seller gives so buyers can trust them (issue 23): a UK phone number and,
 * for a trade seller, a Companies House number and a VAT number. Shared by the forms and the API.
 */

/** Spaces, hyphens, dots and brackets people type between the digits. */
const SEPARATORS = /[\s().-]/g;

/**
 * A UK number as people write it: 0 or +44 (or 0044), then ten digits (a mobile 07…, London 020…, 03…, 08…,
 * 09…), or nine for the older area codes (01…) and some 0800 numbers; e.g. "01823 555123", "+44 7700 900123".
 */
export function ukPhoneError(value: string): string | undefined {
  const compact = value.replace(SEPARATORS, '');
  const national = compact.replace(/^(?:\+44|0044)0?/, '0');
  return /^0(?:1\d{8,9}|[235789]\d{9}|800\d{6})$/.test(national)
    ? undefined
    : 'Phone must be a UK number, like 01823 555123 or 07700 900123';
}

/**
 * A Companies House company number: eight characters, all digits (England and Wales) or two letters
 * and six digits (SC Scotland, NI Northern Ireland, OC an LLP, ...), e.g. "01234567", "SC123456".
 */
export function companyNumberError(value: string): string | undefined {
  const compact = value.replace(/\s/g, '').toUpperCase();
  return /^(?:\d{8}|[A-Z]{2}\d{6})$/.test(compact)
    ? undefined
    : 'Companies House number must be 8 characters: 8 digits, or 2 letters and 6 digits (like 01234567 or SC123456)';
}

/**
 * A UK VAT registration number: optional "GB", nine digits (twelve for a branch: the nine then three),
 * whose check digits pass HMRC's rule. The first seven digits are weighted 8, 7, 6, 5, 4, 3, 2 and summed;
 * the sum plus the two check digits is a multiple of 97 (numbers issued before 2010), or that plus 55 is
 * (the "9755" scheme of numbers issued since). E.g. "GB 999 9999 73".
 */
export function vatNumberError(value: string): string | undefined {
  const compact = value.replace(/\s/g, '').toUpperCase().replace(/^GB/, '');
  if (!/^\d{9}(?:\d{3})?$/.test(compact)) return 'VAT number must be GB and 9 digits, like GB 123 4567 89';
  return vatCheckDigitsPass(compact.slice(0, 9)) ? undefined : 'VAT number is not valid: please check the digits';
}

function vatCheckDigitsPass(nine: string): boolean {
  const weighted = [8, 7, 6, 5, 4, 3, 2].reduce((sum, weight, i) => sum + weight * Number(nine[i]), 0);
  const check = Number(nine.slice(7));
  return (weighted + check) % 97 === 0 || (weighted + check + 55) % 97 === 0;
}

/** Private or trade (issue 23 §2): chosen by every seller before their first listing. */
export const SELLER_TYPES = ['private', 'trade'] as const;
export type SellerType = (typeof SELLER_TYPES)[number];

/** A trade seller's details: a business name, and where they have them a company number and a VAT number. */
export const TRADE_RULES = {
  business_name: { label: 'Business name', maxLength: 100, singleLine: true, optional: true },
  company_number: { label: 'Companies House number', maxLength: 12, singleLine: true, optional: true, format: companyNumberError },
  vat_number: { label: 'VAT number', maxLength: 20, singleLine: true, optional: true, format: vatNumberError },
} as const;

export const SELLER_TEXTS = {
  chooseType: 'Please choose whether you sell as a private seller or as a trader.',
  typeLabel: 'I sell as',
  private: 'A private seller',
  trade: 'A trader (a business)',
  businessNameRequired: 'Business name is required for a trade seller',
  verificationNeedsTrade: 'Only a trade seller with a business name can ask for a business check.',
  verificationWaiting: 'Your business details are waiting for our team to check them.',
  verificationSent: 'Thank you. Our team checks business details within 3 working days; you will see the result here.',
  alreadyVerified: 'Your business details are already verified.',
  /** What trader status means for a buyer, in plain words (Consumer Rights Act 2015, Consumer Contracts Regulations 2013). */
  tradeMeaning:
    'This seller says they sell as a business. Buying from a trader, you have consumer rights: what you buy must be as described, of satisfactory quality and fit for purpose, and if you buy without seeing it in person (for example by phone or online) you can usually cancel within 14 days.',
  privateMeaning:
    'This is a private seller. Buying privately, what you buy must be as described, but you have fewer rights than when you buy from a trader: see it in person before you pay.',
} as const;

/** The form a company or VAT number is kept in: upper case, without spaces (and without GB). */
export function compactTradeNumber(value: string): string {
  return value
    .replace(/\s/g, '')
    .toUpperCase()
    .replace(/^GB(?=\d)/, '');
}

/** How recently a member was active, coarsely (issue 23 §2): never the exact time. */
export const LAST_ACTIVE = ['today', 'this-week', 'this-month', 'earlier'] as const;
export type LastActive = (typeof LAST_ACTIVE)[number];

export function lastActiveOf(at: Date, now = new Date()): LastActive {
  const days = (now.getTime() - at.getTime()) / 86_400_000;
  return days < 1 ? 'today' : days < 7 ? 'this-week' : days < 31 ? 'this-month' : 'earlier';
}

export const LAST_ACTIVE_TEXT: Record<LastActive, string> = {
  today: 'Active today',
  'this-week': 'Active this week',
  'this-month': 'Active this month',
  earlier: 'Active more than a month ago',
};

/** "Usually replies within a day", from the median minutes to a first reply. */
export function replyTimeText(minutes: number): string {
  if (minutes <= 60) return 'Usually replies within an hour';
  if (minutes <= 6 * 60) return 'Usually replies within a few hours';
  if (minutes <= 24 * 60) return 'Usually replies within a day';
  return 'Usually replies within a few days';
}
