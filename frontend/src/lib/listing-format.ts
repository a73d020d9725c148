// How prices and distances are written is shared with the alert e-mails: contracts/listing-display.
export { formatCardPrice, formatDistance, formatListingPrice, priceQualifiers } from '@contracts/listing-display';

/** The year a member joined, for "Member since 2024". */
export function memberSinceYear(isoDate: string): string {
  const year = new Date(isoDate).getUTCFullYear();
  return Number.isNaN(year) ? '' : String(year);
}

/** At most `length` characters, cut at a word and ended with an ellipsis when shortened. */
export function excerpt(text: string, length: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= length) return flat;
  const cut = flat.slice(0, length);
  const space = cut.lastIndexOf(' ');
  return `${(space > length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
