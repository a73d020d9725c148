import { formatPounds } from '@contracts/listing-display';

/** A price in whole pounds, e.g. 12500 → "£12,500". */
export const formatPrice = formatPounds;

/** A count with its noun, singular for one: "1 view", "1,204 views", "0 saves". */
export function countOf(count: number, noun: string): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? noun : `${noun}s`}`;
}

/** One formatter per set of options, made when first used (by options as written at the call). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `date` in en-GB as `options` say, as toLocaleDateString gives it ("Invalid Date" for none). toLocaleDateString
 * with options builds a formatter per call (about 60 µs on the server, a listing page shows several dates).
 */
export function formatDate(date: Date, options: Intl.DateTimeFormatOptions): string {
  if (Number.isNaN(date.getTime())) return 'Invalid Date';
  const key = JSON.stringify(options);
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat('en-GB', options)));
  return format.format(date);
}

/** Made when first used: building it costs a phone's main thread, on pages that may show no time. */
let relativeFormat: Intl.RelativeTimeFormat | undefined;
const relative = () => (relativeFormat ??= new Intl.RelativeTimeFormat('en-GB', { numeric: 'auto' }));

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 60 * 60],
  ['month', 30 * 24 * 60 * 60],
  ['week', 7 * 24 * 60 * 60],
  ['day', 24 * 60 * 60],
  ['hour', 60 * 60],
  ['minute', 60],
];

/** Time since (or until) a moment, e.g. "5 minutes ago", "yesterday"; under a minute is "just now". */
export function formatRelativeTime(value: Date | string | number, now: Date = new Date()): string {
  const seconds = Math.round((new Date(value).getTime() - now.getTime()) / 1000);
  if (Number.isNaN(seconds)) return '';
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative().format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}
