/**
 * UK postcodes as typed ("ex201ab", "EX20 1AB", "TA1"): recognised and written the one way the
 * rest of the product and postcodes.io use, so two spellings are one place (and one cache entry).
 */

/** A full postcode ("EX20 1AB") or an outcode alone ("TA1"), in its canonical form. */
export type ParsedPostcode = { kind: 'postcode'; postcode: string; outcode: string } | { kind: 'outcode'; outcode: string };

// The outward code: one or two letters, a digit, then a digit or a letter (London's "SW1A", "EC1V").
const OUTCODE = /^[A-Z]{1,2}[0-9][A-Z0-9]?$/;
// The inward code: a digit and two letters, never C, I, K, M, O or V (Royal Mail's rule).
const INCODE = /^[0-9][ABD-HJLNP-UW-Z]{2}$/;

/** The postcode or outcode `text` is, or undefined when it is neither (a place name, a half-typed postcode). */
export function parsePostcode(text: string): ParsedPostcode | undefined {
  const compact = text.toUpperCase().replace(/\s+/g, '');
  if (compact.length < 2 || compact.length > 7) return undefined;
  if (OUTCODE.test(compact)) return { kind: 'outcode', outcode: compact };
  const outcode = compact.slice(0, -3);
  const incode = compact.slice(-3);
  if (OUTCODE.test(outcode) && INCODE.test(incode)) return { kind: 'postcode', postcode: `${outcode} ${incode}`, outcode };
  return undefined;
}

/**
 * A place id's form, as the API contract states it: a GeoNames id (digits), or an outcode and
 * optionally an inward code, in either case, spaces around them allowed; the inward code's letters
 * are Royal Mail's (never C, I, K, M, O or V).
 */
export const PLACE_ID_PATTERN = '^(\\d{1,12}|\\s*[A-Za-z]{1,2}\\d[A-Za-z\\d]?\\s*(\\d[ABD-HJLNP-UW-Zabd-hjlnp-uw-z]{2})?\\s*)$';
const PLACE_ID = new RegExp(PLACE_ID_PATTERN);

/**
 * Whether `text` names a place as GET /api/places gives ids: a GeoNames town or village (digits) or a
 * UK postcode or outcode however typed ("EX20 1AB", "ex201ab", "TA1"). The one test of a place id:
 * request bodies, search parameters and the listing page's `near` all use it.
 */
export function isPlaceId(text: string): boolean {
  return PLACE_ID.test(text) && (/^\d+$/.test(text) || parsePostcode(text) !== undefined);
}

/** The canonical form of a postcode or outcode ("EX20 1AB", "TA1"), or undefined. */
export function canonicalPostcode(text: string): string | undefined {
  const parsed = parsePostcode(text);
  return parsed && (parsed.kind === 'postcode' ? parsed.postcode : parsed.outcode);
}

/**
 * Decimal places a listing's coordinates are stored to: 0.01° is about 1.1 km north to south and
 * 0.7 km east to west in the UK. A full postcode's centre is within a few hundred metres of the
 * seller's gate (a postcode averages 15 addresses, a rural one may be a single farm); rounded, the
 * point moves by up to about 650 m, so the stored place no longer points at the address, while a
 * distance shown to a tenth of a mile stays within half a mile of the truth.
 */
export const LISTING_COORDINATE_DECIMALS = 2;

/** A coordinate as a listing stores it (LISTING_COORDINATE_DECIMALS). */
export function roundedCoordinate(degrees: number): number {
  const scale = 10 ** LISTING_COORDINATE_DECIMALS;
  return Math.round(degrees * scale) / scale;
}
