/**
 * Formats a category field's text can be declared to have (CategoryField `format`): each one's
 * check, its message, the stored form and what a visitor sees of it. Shared by the API and the
 * wizard, so both refuse the same values in the same words.
 */
export interface FieldFormat {
  /** The value as stored (upper-cased, spaced as the official form), or undefined when it is not in the format. */
  normalise(text: string): string | undefined;
  /** The refusal, with the field's label: "Holding number (CPH) must look like 12/345/6789". */
  message(label: string): string;
  /** What someone other than the owner sees, when the field's visibility is `masked`. */
  mask?(stored: string): string;
}

/**
 * A County Parish Holding number: 2-digit county, 3-digit parish, 4-digit holding (Rural Payments
 * Agency). Visitors see the county and parish only: enough to place the holding, not to name it.
 */
const cph: FieldFormat = {
  normalise(text) {
    const match = /^(\d{2})\s*[/-]?\s*(\d{3})\s*[/-]?\s*(\d{4})$/.exec(text.trim());
    return match ? `${match[1]}/${match[2]}/${match[3]}` : undefined;
  },
  message: (label) => `${label} must look like 12/345/6789 (county/parish/holding)`,
  mask: (stored) => `${stored.slice(0, 6)}/····`,
};

/**
 * A UK cattle ear tag (the passport number) in the format used since 2000: UK, a 6-digit herd mark,
 * a check digit 1–7 and a 5-digit animal number, e.g. "UK 284205 700016". The check digit is the
 * herd mark and animal number read as one 11-digit number, modulo 7, plus 1 (BCMS numbering).
 */
export function ukCattleTag(text: string): string | undefined {
  const match = /^UK\s*(\d{6})\s*([1-7])\s*(\d{5})$/i.exec(text.trim());
  if (!match) return undefined;
  const [, herd, check, animal] = match as unknown as [string, string, string, string];
  if (ukCattleTagCheckDigit(herd, animal) !== Number(check)) return undefined;
  return `UK ${herd} ${check}${animal}`;
}

/** The check digit of a UK cattle tag's herd mark (6 digits) and animal number (5 digits). */
export function ukCattleTagCheckDigit(herdMark: string, animalNumber: string): number {
  return Number(BigInt(`${herdMark}${animalNumber}`) % 7n) + 1;
}

const ukEarTag: FieldFormat = {
  normalise: ukCattleTag,
  message: (label) => `${label}: each tag must be a UK cattle tag like UK 284205 700016 with its check digit right`,
};

/** A herd or flock mark: the 6-digit number APHA gives a holding's animals (sheep and goats: prefixed UK 0). */
const herdMark: FieldFormat = {
  normalise(text) {
    const match = /^(?:UK\s*0?)?(\d{6})$/i.exec(text.trim());
    return match ? match[1] : undefined;
  },
  message: (label) => `${label} must be the 6-digit herd or flock mark, e.g. 284205`,
};

export const FIELD_FORMATS = { cph, 'uk-ear-tag': ukEarTag, 'herd-mark': herdMark } as const;
export type FieldFormatName = keyof typeof FIELD_FORMATS;

/** The items of a list field as typed: one per line or separated by commas. */
export function listItems(text: string): string[] {
  return text
    .split(/[\n,;]+/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** A date (YYYY-MM-DD) plus some days, as YYYY-MM-DD: a pre-movement test's "valid until". */
export function addDays(isoDate: string, days: number): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** The day `days` before a date, as YYYY-MM-DD. */
export function daysBefore(isoDate: string, days: number): string {
  return addDays(isoDate, -days);
}
