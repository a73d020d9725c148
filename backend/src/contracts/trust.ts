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

/** The digits of a UK phone number in one form (+44…), so the same number is counted and shown once. */
export function ukPhoneDigits(value: string): string {
  return `+44${value.replace(SEPARATORS, '').replace(/^(?:\+44|0044)?0?/, '')}`;
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
