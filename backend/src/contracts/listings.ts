import type { CategorySlug } from './categories.js';
import { hasControlCharacters, type TextRule } from './text-rules.js';

/** For sale, or for rent (SPEC §2 "Post listing"); or wanted: a buyer's ad for what they seek (issue 21 §5). */
export const LISTING_TYPES = ['sale', 'rent', 'wanted'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

/** Categories a listing for sale can be in; a rental is in "rentals" with one of RENT_SUBCATEGORIES. */
export const SALE_CATEGORIES = ['land', 'equipment', 'seeds-plants', 'livestock', 'services'] as const satisfies readonly CategorySlug[];
export const RENT_SUBCATEGORIES = ['land', 'equipment', 'services'] as const satisfies readonly CategorySlug[];
export type RentSubcategory = (typeof RENT_SUBCATEGORIES)[number];

/** What the price is for. Rentals are priced per period. */
export const PRICE_UNITS = {
  total: 'total',
  'per-head': 'per head',
  'per-acre': 'per acre',
  'per-tonne': 'per tonne',
  'per-day': 'per day',
  'per-week': 'per week',
  'per-month': 'per month',
  'per-season': 'per season',
} as const;
export type PriceUnit = keyof typeof PRICE_UNITS;
export const SALE_PRICE_UNITS: readonly PriceUnit[] = ['total', 'per-head', 'per-acre', 'per-tonne'];
export const RENT_PRICE_UNITS: readonly PriceUnit[] = ['per-day', 'per-week', 'per-month', 'per-season'];

export const VAT_OPTIONS = { included: 'VAT included', 'plus-vat': '+ VAT', 'no-vat': 'No VAT' } as const;
export type VatOption = keyof typeof VAT_OPTIONS;

/** A listing's life: live until sold or let, withdrawn by its seller, expired after 90 days, or removed by staff. */
export const LISTING_STATUSES = ['live', 'sold', 'let', 'withdrawn', 'expired', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
export const LISTING_LIFETIME_DAYS = 90;
export const EXPIRY_WARNING_DAYS = 7;

/** SPEC §9 "Sort options", plus nearest (with a location) and relevance (with text). */
export const LISTING_SORTS = ['newest', 'oldest', 'price-low', 'price-high', 'popular', 'nearest', 'relevance'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

/** SPEC §9 "Date filter". */
export const DATE_RANGES = { all: 0, today: 1, week: 7, month: 30, quarter: 90 } as const;
export type DateRange = keyof typeof DATE_RANGES;

export const PAGE_SIZE = 20;
export const PAGE_SIZE_MAX = 50;
export const FEATURED_LIMIT = 6;
export const RADIUS_MILES_MAX = 500;
export const MAX_IMAGES = 8;
export const PRICE_MAX_POUNDS = 100_000_000;

export const LISTING_RULES = {
  title: { label: 'Title', maxLength: 100, singleLine: true },
  description: { label: 'Description', minLength: 50, maxLength: 1000 },
  location: { label: 'Location', maxLength: 120, singleLine: true },
} as const satisfies Record<string, TextRule>;

/**
 * A field of one category (machinery hours, head of livestock...). Declaring a field here is all it
 * takes: the API validates it, search filters on it (`<key>_min` / `<key>_max` for ranges), the
 * wizard shows it. Values are stored in the listing's `attributes`.
 */
export type CategoryField =
  | { key: string; label: string; kind: 'text'; maxLength: number }
  | { key: string; label: string; kind: 'integer' | 'decimal'; min: number; max: number; unit?: string; range?: boolean }
  | { key: string; label: string; kind: 'choice'; options: Readonly<Record<string, string>> }
  | { key: string; label: string; kind: 'yes-no' }
  | { key: string; label: string; kind: 'date' };

const THIS_YEAR = new Date().getFullYear();

export const CATEGORY_FIELDS: Readonly<Record<CategorySlug, readonly CategoryField[]>> = {
  equipment: [
    { key: 'make', label: 'Make', kind: 'text', maxLength: 60 },
    { key: 'model', label: 'Model', kind: 'text', maxLength: 60 },
    { key: 'year', label: 'Year', kind: 'integer', min: 1900, max: THIS_YEAR + 1, range: true },
    { key: 'hours', label: 'Hours', kind: 'integer', min: 0, max: 200_000, unit: 'hours', range: true },
  ],
  livestock: [
    { key: 'breed', label: 'Breed', kind: 'text', maxLength: 60 },
    { key: 'sex', label: 'Sex', kind: 'choice', options: { female: 'Female', male: 'Male', mixed: 'Mixed' } },
    { key: 'age_months', label: 'Age', kind: 'integer', min: 0, max: 360, unit: 'months', range: true },
    { key: 'head_count', label: 'Head count', kind: 'integer', min: 1, max: 100_000, unit: 'head', range: true },
  ],
  land: [
    { key: 'acres', label: 'Acres', kind: 'decimal', min: 0.01, max: 100_000, unit: 'acres', range: true },
    {
      key: 'tenure',
      label: 'Tenure',
      kind: 'choice',
      options: { freehold: 'Freehold', tenancy: 'Tenancy', 'grazing-licence': 'Grazing licence' },
    },
  ],
  'seeds-plants': [
    { key: 'variety', label: 'Variety', kind: 'text', maxLength: 60 },
    { key: 'quantity', label: 'Quantity', kind: 'decimal', min: 0.01, max: 1_000_000, range: true },
    {
      key: 'quantity_unit',
      label: 'Quantity unit',
      kind: 'choice',
      options: { kg: 'kg', tonnes: 'tonnes', bags: 'bags', bales: 'bales', plants: 'plants', trays: 'trays' },
    },
    { key: 'organic', label: 'Organic', kind: 'yes-no' },
  ],
  services: [{ key: 'coverage_miles', label: 'Coverage radius', kind: 'integer', min: 1, max: 500, unit: 'miles', range: true }],
  rentals: [
    { key: 'available_from', label: 'Available from', kind: 'date' },
    { key: 'available_to', label: 'Available to', kind: 'date' },
  ],
};

/** The fields of a listing: its category's, and for a rental also those of what is rented. */
export function fieldsFor(category: CategorySlug, rentSubcategory?: RentSubcategory): readonly CategoryField[] {
  return category === 'rentals' && rentSubcategory
    ? [...CATEGORY_FIELDS[rentSubcategory], ...CATEGORY_FIELDS.rentals]
    : CATEGORY_FIELDS[category];
}

/** The first thing wrong with one field's value (undefined when valid or empty: category fields are optional). */
export function categoryFieldError(field: CategoryField, value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  switch (field.kind) {
    case 'text':
      if (typeof value !== 'string') return `${field.label} must be text`;
      if (hasControlCharacters(value, 'singleLine')) return `${field.label} must be on one line`;
      return value.trim().length > field.maxLength ? `${field.label} must be at most ${field.maxLength} characters` : undefined;
    case 'integer':
    case 'decimal': {
      const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      const whole = field.kind === 'integer';
      if (!Number.isFinite(number) || (whole && !Number.isInteger(number)) || number < field.min || number > field.max) {
        return `${field.label} must be ${whole ? 'a whole number' : 'a number'} from ${field.min} to ${field.max}`;
      }
      return undefined;
    }
    case 'choice':
      return typeof value === 'string' && value in field.options
        ? undefined
        : `${field.label} must be one of: ${Object.values(field.options).join(', ')}`;
    case 'yes-no':
      return typeof value === 'boolean' ? undefined : `${field.label} must be yes or no`;
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))
        ? undefined
        : `${field.label} must be a date (YYYY-MM-DD)`;
  }
}

/** SPEC §5 "Post listing": the messages of the wizard, collected and joined with commas. */
export const LISTING_TEXTS = {
  typeRequired: 'Listing type is required',
  titleRequired: 'Title is required',
  categoryRequired: 'Category is required',
  selectCategory: 'Please select a category',
  invalidCategory: 'Invalid category selected',
  priceRequired: 'Price is required',
  locationRequired: 'Location is required',
  descriptionRequired: 'Description is required',
  descriptionTooShort: 'Description must be at least 50 characters',
  imageRequired: 'At least one image is required',
  tooManyImages: 'You can upload a maximum of 8 images.',
  unknownPlace: 'Choose a town or village from the list, or type a UK postcode or outcode (EX20 1AB, TA1).',
  unknownPostcode: (code: string) => `We could not find the postcode ${code}: check it, or choose a town or village from the list.`,
  notFound: 'Listing Not Found',
  cannotSaveOwn: 'You cannot save your own listing.',
  /** The declaration asked before a person's first listing (the terms: sellers must be 18 or over). */
  overEighteenLabel: 'I confirm I am 18 or over',
  overEighteenRequired: 'Please confirm you are 18 or over to post a listing.',
} as const;
