import type { CategorySlug } from '@contracts/categories';
import { fieldsFor, RENT_SUBCATEGORIES, type RentSubcategory, validUntil } from '@contracts/listings';
import type { ListingDetail } from './listings-api';
import { tbAreaOf } from './livestock-movement';
import { formatDate } from '../../lib/format';

/** The category's own fields of a listing, as label and words ("Hours: 2,400 hours"), in the contracts' order. */
export function categoryFacts(
  listing: Pick<ListingDetail, 'category_slug' | 'rent_subcategory' | 'attributes'> & { location?: string },
): Array<{ label: string; value: string }> {
  const sub = (RENT_SUBCATEGORIES as readonly string[]).includes(listing.rent_subcategory ?? '')
    ? (listing.rent_subcategory as RentSubcategory)
    : undefined;
  const facts: Array<{ label: string; value: string }> = [];
  for (const field of fieldsFor(listing.category_slug as CategorySlug, sub) ?? []) {
    const value = listing.attributes[field.key];
    if (value === undefined || value === null || value === '') continue;
    let shown: string;
    switch (field.kind) {
      case 'choice':
        shown = field.options[String(value)] ?? String(value);
        break;
      case 'choices':
        shown = (Array.isArray(value) ? value : [value]).map((key) => field.options[String(key)] ?? String(key)).join(', ');
        break;
      case 'yes-no':
        shown = value === true ? 'Yes' : 'No';
        break;
      case 'date':
        shown = longDate(String(value));
        break;
      case 'list':
        // An owner sees their tags one per line; others see only that they are on file.
        shown = String(value).split('\n').join(', ');
        break;
      case 'integer':
      case 'decimal':
        shown = `${field.key === 'year' ? String(value) : Number(value).toLocaleString('en-GB')}${field.unit ? ` ${field.unit}` : ''}`;
        break;
      default:
        shown = String(value);
    }
    facts.push({ label: field.label, value: shown });
    // Derived, never typed: a pre-movement test's "valid until".
    const until = validUntil(field, value);
    if (until && field.kind === 'date' && field.validFor) facts.push({ label: field.validFor.label, value: longDate(until) });
  }
  // Cattle: the TB area of the seller's place, as far as its country settles it.
  const tbArea = listing.attributes['species'] === 'cattle' && listing.location ? tbAreaOf(listing.location) : undefined;
  if (tbArea) facts.push({ label: 'TB area', value: tbArea });
  return facts;
}

function longDate(isoDate: string): string {
  return formatDate(new Date(`${isoDate}T00:00:00Z`), { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** JSON-LD for a listing (schema.org Product with an Offer in GBP), safe inside a <script> element. */
export function listingJsonLd(listing: ListingDetail, url: string, image: string | undefined): string {
  const availability =
    listing.status === 'live'
      ? 'https://schema.org/InStock'
      : listing.status === 'sold' || listing.status === 'let'
        ? 'https://schema.org/SoldOut'
        : 'https://schema.org/Discontinued';
  const data = {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: listing.title,
    description: listing.description,
    category: listing.category_name,
    url,
    ...(image ? { image } : {}),
    offers: {
      '@type': 'Offer',
      price: listing.price.toFixed(2),
      priceCurrency: 'GBP',
      availability,
      url,
      areaServed: listing.location,
      seller: { '@type': 'Person', name: listing.seller.name },
    },
  };
  // "<" as \u003c: no "</script>" or "<!--" from a title or description can end the element.
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
