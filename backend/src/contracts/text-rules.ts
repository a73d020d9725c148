/**
 * The rules of a text field and the message for each way it can be wrong, shared by the forms in
 * the browser and the API's request validation, so both say the same thing in the same order.
 */
export interface TextRule {
  /** Names the field in messages: "Name is required". */
  label: string;
  /** Absent or blank (after trimming) is an error unless the field is optional. */
  optional?: boolean;
  minLength?: number;
  maxLength: number;
  email?: boolean;
  /** Refuses line breaks and tabs: names, subjects and titles end up in e-mail headers and one-line layouts. */
  singleLine?: boolean;
  /** Compared and kept in lower case (e-mail addresses of accounts). */
  lowercase?: boolean;
  /** A check of the field's form beyond length and characters (a UK phone number, a VAT number): its message, or undefined. */
  format?: (value: string) => string | undefined;
}

/**
 * local@domain.tld as mail servers accept it: dot-separated parts with no empty part (so no
 * "jane..farmer" or "jane.@"), a domain of letters, digits and hyphens, a top-level domain of two
 * letters or more. A typo check, not a deliverability check.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

/** Line breaks, including the vertical tab, form feed, NEL and Unicode's line and paragraph separators. */
const LINE_BREAK_CHARS = '\\n\\r\\v\\f\\u0085\\u2028\\u2029';
/** C0 and C1 control characters and DEL, but tab, line feed and carriage return (judged by singleLine). */
const CONTROL_CHARS = '\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f-\\u009f';
/**
 * Unicode's explicit direction controls (embeddings, overrides, isolates): in a name or a title they can show
 * "Trusted dealer" written backwards or turn the text after them around. Text in right-to-left scripts
 * needs none of them on one line; the implicit marks (U+200E, U+200F) stay allowed.
 */
const DIRECTION_CONTROL_CHARS = '\\u202a-\\u202e\\u2066-\\u2069';
/** What String.prototype.trim removes, spelled out: JSON Schema's readers do not agree on `\s`. */
const SPACE_CHARS = '\\t\\n\\v\\f\\r \\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff';
const LINE_BREAK = new RegExp(`[${LINE_BREAK_CHARS}]`);

/**
 * The control-character rule, the one definition every text check uses. `multiLine` text (message
 * bodies, notes, descriptions) may hold tabs and line breaks; `singleLine` text (names, titles,
 * subjects, paths) may not, nor Unicode's line separators and direction controls.
 */
export type TextLines = 'multiLine' | 'singleLine';

/** The characters `lines` text refuses, as the body of a regular-expression character class. */
export function controlCharacterClass(lines: TextLines): string {
  return lines === 'singleLine' ? `${CONTROL_CHARS}${LINE_BREAK_CHARS}\\t${DIRECTION_CONTROL_CHARS}` : CONTROL_CHARS;
}

const CONTROL = { multiLine: new RegExp(`[${CONTROL_CHARS}]`), singleLine: new RegExp(`[${controlCharacterClass('singleLine')}]`) };
const CONTROL_RUNS = new RegExp(`[${controlCharacterClass('singleLine')}]+`, 'g');

/** Whether `value` holds a character that `lines` text refuses. */
export function hasControlCharacters(value: string, lines: TextLines): boolean {
  return CONTROL[lines].test(value);
}

/** `value` with each run of control characters and line breaks made one space (text from elsewhere, made one line). */
export function controlCharactersToSpaces(value: string): string {
  return value.replace(CONTROL_RUNS, ' ');
}

/**
 * The characters `rule` accepts, as a pattern for the API contract (JSON Schema, ECMA-262 syntax):
 * no control characters (nor line breaks or tabs on one line) and, for a required field, at least
 * one character that is not a space. Length and e-mail form are stated apart (maxLength, format).
 */
export function textFieldPattern(rule: TextRule): string {
  const refused = controlCharacterClass(rule.singleLine ? 'singleLine' : 'multiLine');
  return rule.optional ? `^[^${refused}]*$` : `^[^${refused}]*[^${refused}${SPACE_CHARS}][^${refused}]*$`;
}

/** The first thing wrong with `value` (already trimmed when it is a string), or undefined. */
export function textFieldError(rule: TextRule, value: unknown): string | undefined {
  const { label } = rule;
  if (value === undefined || value === null || value === '') return rule.optional ? undefined : `${label} is required`;
  if (typeof value !== 'string') return `${label} must be text`;
  if (rule.singleLine && LINE_BREAK.test(value)) return `${label} must be on one line`;
  if (hasControlCharacters(value, rule.singleLine ? 'singleLine' : 'multiLine')) return `${label} must not contain control characters`;
  if (value.length > rule.maxLength) return `${label} must be at most ${rule.maxLength} characters`;
  if (rule.email && !EMAIL_PATTERN.test(value)) return 'Please enter a valid email address';
  if (rule.minLength !== undefined && value.length < rule.minLength) return `${label} must be at least ${rule.minLength} characters`;
  return rule.format?.(value);
}

/** Trims strings (and lower-cases them for a `lowercase` rule); other values pass through for the type check. */
export function trimText(value: unknown, rule?: Pick<TextRule, 'lowercase'>): unknown {
  if (typeof value !== 'string') return value;
  return rule?.lowercase ? value.trim().toLowerCase() : value.trim();
}

/** One message per invalid field, in the rules' order; an empty object when all are valid. */
export function validateTextFields<F extends string>(
  rules: Readonly<Record<F, TextRule>>,
  values: Partial<Record<F, unknown>>,
): Partial<Record<F, string>> {
  const errors: Partial<Record<F, string>> = {};
  for (const field of Object.keys(rules) as F[]) {
    const error = textFieldError(rules[field], trimText(values[field], rules[field]));
    if (error) errors[field] = error;
  }
  return errors;
}
