import type { CategorySlug } from './categories.js';
import { addDays, FIELD_FORMATS, type FieldFormatName, listItems } from './field-formats.js';
import { hasControlCharacters, type TextRule } from './text-rules.js';
import { type PriceUnit } from './listing-display.js';

// What a listing card shows (units, VAT, the featured grid's size) lives in listing-display.ts, so the
// pages that only show cards do not load the category fields and their checks.
export { FEATURED_LIMIT, PRICE_UNITS, VAT_OPTIONS, type PriceUnit, type VatOption } from './listing-display.js';

/** For sale, or for rent (SPEC §2 "Post listing"); or wanted: a buyer's ad for what they seek (issue 21 §5). */
export const LISTING_TYPES = ['sale', 'rent', 'wanted'] as const;
export type ListingType = (typeof LISTING_TYPES)[number];

/** Categories a listing for sale can be in; a rental is in "rentals" with one of RENT_SUBCATEGORIES. */
export const SALE_CATEGORIES = ['land', 'equipment', 'seeds-plants', 'livestock', 'services'] as const satisfies readonly CategorySlug[];
export const RENT_SUBCATEGORIES = ['land', 'equipment', 'services'] as const satisfies readonly CategorySlug[];
export type RentSubcategory = (typeof RENT_SUBCATEGORIES)[number];

/**
 * The units each kind of listing is priced in: grazing and land by the acre per season or year,
 * or per head per week (grazing, agistment, winter tack); machinery by the day, week or month.
 */
const SALE_UNITS_FOR: Readonly<Partial<Record<CategorySlug, readonly PriceUnit[]>>> = {
  land: ['total', 'per-acre'],
  equipment: ['total'],
  'seeds-plants': ['total', 'per-tonne', 'per-bag'],
  livestock: ['total', 'per-head'],
  services: ['total', 'per-hour', 'per-acre', 'per-job'],
};

export const PRICE_UNITS_FOR: Readonly<Record<ListingType, Readonly<Partial<Record<CategorySlug, readonly PriceUnit[]>>>>> = {
  sale: SALE_UNITS_FOR,
  rent: {
    land: ['per-acre-season', 'per-acre-year', 'per-head-week', 'per-week', 'per-month', 'per-season'],
    equipment: ['per-day', 'per-week', 'per-month', 'per-season'],
    services: ['per-day', 'per-week', 'per-month', 'per-season'],
  },
  // A buyer's wanted ad names the most they pay in the units the same things are sold in.
  wanted: SALE_UNITS_FOR,
};

/** The units a listing of this type and category (a rental: what is rented) may be priced in; the first is the default. */
export function priceUnitsFor(type: ListingType, category: CategorySlug | undefined): readonly PriceUnit[] {
  return (category && PRICE_UNITS_FOR[type][category]) || (type === 'rent' ? RENT_PRICE_UNITS : SALE_PRICE_UNITS);
}
export const SALE_PRICE_UNITS: readonly PriceUnit[] = ['total', 'per-head', 'per-acre', 'per-tonne'];
export const RENT_PRICE_UNITS: readonly PriceUnit[] = ['per-day', 'per-week', 'per-month', 'per-season'];

/** A listing's life: live until sold or let, withdrawn by its seller, expired after 90 days, or removed by staff. */
export const LISTING_STATUSES = ['live', 'sold', 'let', 'withdrawn', 'expired', 'removed'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];
export const LISTING_LIFETIME_DAYS = 90;
export const EXPIRY_WARNING_DAYS = 7;

/**
 * SPEC §9 "Sort options", plus nearest (with a location), relevance (with text), and livestock by
 * price per head, lowest first (a lot priced in total divided by its head count; lots without a
 * price per head last).
 */
export const LISTING_SORTS = ['newest', 'oldest', 'price-low', 'price-high', 'popular', 'nearest', 'relevance', 'price-per-head'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

/** SPEC §9 "Date filter". */
export const DATE_RANGES = { all: 0, today: 1, week: 7, month: 30, quarter: 90 } as const;
export type DateRange = keyof typeof DATE_RANGES;

export const PAGE_SIZE = 20;
export const PAGE_SIZE_MAX = 50;
export const RADIUS_MILES_MAX = 500;
export const MAX_IMAGES = 8;
export const PRICE_MAX_POUNDS = 100_000_000;

export const LISTING_RULES = {
  title: { label: 'Title', maxLength: 100, singleLine: true },
  description: { label: 'Description', minLength: 50, maxLength: 1000 },
  location: { label: 'Location', maxLength: 120, singleLine: true },
} as const satisfies Record<string, TextRule>;

/** Livestock species; some fields apply to one species only (ear tags and passports to cattle). */
export const SPECIES = { cattle: 'Cattle', sheep: 'Sheep', pigs: 'Pigs', goats: 'Goats' } as const;
export type Species = keyof typeof SPECIES;

/** Days a pre-movement TB test stays valid: cattle must move within 60 days of it (GOV.UK "Bovine TB: pre-movement testing"). */
export const PRE_MOVEMENT_TEST_VALID_DAYS = 60;

/**
 * What of a field others than its owner see: everything (`public`, the default), the format's mask
 * (`masked`: a holding number's county and parish), or only that it is on file (`owner-only`: ear
 * tags, a machine's serial). The owner always sees the whole value.
 */
export type FieldVisibility = 'public' | 'masked' | 'owner-only';

interface FieldCommon {
  key: string;
  label: string;
  visibility?: FieldVisibility;
  /** The livestock species the field applies to (every species when absent). */
  species?: readonly Species[];
  /** A line of help the wizard shows under the field. */
  hint?: string;
}

/**
 * A field of one category (machinery hours, head of livestock...). Declaring a field here is all it
 * takes: the API validates it, search filters on it (`<key>_min` / `<key>_max` for ranges,
 * `<key>=<choice>` or `<key>=yes` where `filter` is set, `<key>_valid_on=<date>` for a date that
 * stays valid some days), the wizard shows it and a listing shows it to whom its visibility allows.
 * `choices` takes several of its options (a list of their keys) and filters by "has any of"
 * (`<key>=sssi,nvz`). Values are stored in the listing's `attributes`. A field search filters on
 * gets its indexes from this declaration (modules/listings/field-indexes.ts); the database has them
 * once a migration names the key (`fieldIndexSql(['key'])`), which field-indexes.spec asks for.
 */
export type CategoryField = FieldCommon &
  (
    | { kind: 'text'; maxLength: number; format?: FieldFormatName; filter?: boolean }
    | {
        /** Several values of one format, one per line or comma-separated; at most one per head when `perHeadOf` is set. */
        kind: 'list';
        format: FieldFormatName;
        maxItems: number;
        perHeadOf?: string;
      }
    | { kind: 'integer' | 'decimal'; min: number; max: number; unit?: string; range?: boolean }
    | { kind: 'choice'; options: Readonly<Record<string, string>>; filter?: boolean }
    | {
        /** Several of the options (a list of their keys, each once): land designations, health schemes. */
        kind: 'choices';
        options: Readonly<Record<string, string>>;
        filter?: boolean;
      }
    | { kind: 'yes-no'; filter?: boolean }
    | {
        kind: 'date';
        /** Not after today (a test already done). */
        past?: boolean;
        /** The date stays valid this many days: shown as "valid until", derived never typed, and searchable by `<key>_valid_on`. */
        validFor?: { days: number; label: string };
      }
  );

/** Whether search filters on a field by value: a text, choice(s) or yes-no declared `filter`, a date that stays valid. */
export function isFilterable(field: CategoryField): boolean {
  return (
    ((field.kind === 'text' || field.kind === 'choice' || field.kind === 'choices' || field.kind === 'yes-no') && Boolean(field.filter)) ||
    (field.kind === 'date' && Boolean(field.validFor))
  );
}

/** A category field's value as stored and shown: several choices are a list of their keys. */
export type AttributeValue = string | number | boolean | string[];

const THIS_YEAR = new Date().getFullYear();

/** Fields of cattle only (ear tags, passports, TB testing). */
const CATTLE: readonly Species[] = ['cattle'];

export const CATEGORY_FIELDS: Readonly<Record<CategorySlug, readonly CategoryField[]>> = {
  equipment: [
    { key: 'make', label: 'Make', kind: 'text', maxLength: 60, filter: true },
    { key: 'model', label: 'Model', kind: 'text', maxLength: 60 },
    { key: 'year', label: 'Year', kind: 'integer', min: 1900, max: THIS_YEAR + 1, range: true },
    { key: 'hours', label: 'Hours', kind: 'integer', min: 0, max: 200_000, unit: 'hours', range: true },
    {
      key: 'serial',
      label: 'Serial number / PIN',
      kind: 'text',
      maxLength: 40,
      visibility: 'owner-only',
      hint: 'Kept private: buyers see only that the serial is on file.',
    },
    { key: 'registration', label: 'Registration', kind: 'text', maxLength: 10 },
    {
      key: 'condition',
      label: 'Condition',
      kind: 'choice',
      options: {
        new: 'New',
        'ex-demo': 'Ex-demo',
        excellent: 'Used: excellent',
        good: 'Used: good',
        fair: 'Used: fair',
        spares: 'Spares or repair',
      },
      filter: true,
    },
    {
      key: 'cesar',
      label: 'CESAR marked',
      kind: 'yes-no',
      filter: true,
      hint: 'The UK construction and agricultural equipment security scheme.',
    },
  ],
  livestock: [
    { key: 'species', label: 'Species', kind: 'choice', options: SPECIES, filter: true },
    { key: 'breed', label: 'Breed', kind: 'text', maxLength: 60 },
    { key: 'sex', label: 'Sex', kind: 'choice', options: { female: 'Female', male: 'Male', mixed: 'Mixed' } },
    { key: 'age_months', label: 'Age', kind: 'integer', min: 0, max: 360, unit: 'months', range: true },
    { key: 'head_count', label: 'Head count', kind: 'integer', min: 1, max: 100_000, unit: 'head', range: true },
    {
      key: 'cph',
      label: 'Holding number (CPH)',
      kind: 'text',
      maxLength: 12,
      format: 'cph',
      visibility: 'masked',
      hint: 'Visitors see only the county and parish part (12/345).',
    },
    { key: 'herd_mark', label: 'Herd or flock mark', kind: 'text', maxLength: 10, format: 'herd-mark' },
    {
      key: 'ear_tags',
      label: 'Ear tags',
      kind: 'list',
      format: 'uk-ear-tag',
      maxItems: 500,
      perHeadOf: 'head_count',
      species: CATTLE,
      visibility: 'owner-only',
      hint: 'One per line, e.g. UK 284205 700016. Kept private: buyers see only that the tags are on file.',
    },
    { key: 'pedigree', label: 'Pedigree registered', kind: 'yes-no', filter: true },
    { key: 'society', label: 'Breed society registration', kind: 'text', maxLength: 60 },
    { key: 'passports', label: 'BCMS passports present', kind: 'yes-no', species: CATTLE },
    {
      key: 'tb_status',
      label: 'Herd TB status',
      kind: 'choice',
      options: {
        otf: 'Officially TB free',
        'otf-withdrawn': 'OTF withdrawn',
        'otf-suspended': 'OTF suspended',
        'not-applicable': 'Not applicable',
      },
      filter: true,
      species: CATTLE,
    },
    { key: 'herd_test_date', label: 'Last whole-herd TB test', kind: 'date', past: true, species: CATTLE },
    {
      key: 'pre_movement_test',
      label: 'Pre-movement TB test',
      kind: 'date',
      past: true,
      validFor: { days: PRE_MOVEMENT_TEST_VALID_DAYS, label: 'Pre-movement test valid until' },
      species: CATTLE,
    },
    {
      key: 'bvd',
      label: 'BVD',
      kind: 'choice',
      options: { accredited: 'CHeCS accredited free', monitored: 'In a CHeCS monitoring programme', vaccinated: 'Vaccinated' },
      filter: true,
      species: CATTLE,
    },
    {
      key: 'johnes',
      label: 'Johne’s (CHeCS risk level)',
      kind: 'choice',
      options: { '1': 'Level 1 (lowest risk)', '2': 'Level 2', '3': 'Level 3', '4': 'Level 4', '5': 'Level 5' },
      filter: true,
    },
    {
      key: 'health_schemes',
      label: 'CHeCS health schemes',
      kind: 'choices',
      options: { bvd: 'BVD', johnes: 'Johne’s', ibr: 'IBR', lepto: 'Leptospirosis', neospora: 'Neospora' },
      filter: true,
      hint: 'Every disease programme of a CHeCS-licensed scheme the herd or flock is in.',
    },
    { key: 'organic', label: 'Organic certified', kind: 'yes-no', filter: true },
  ],
  land: [
    { key: 'acres', label: 'Acres', kind: 'decimal', min: 0.01, max: 100_000, unit: 'acres', range: true },
    {
      key: 'tenure',
      label: 'Tenure',
      kind: 'choice',
      options: {
        freehold: 'Freehold',
        tenancy: 'Farm Business Tenancy',
        'grazing-licence': 'Grazing licence',
        'seasonal-let': 'Seasonal let',
        'contract-farming': 'Contract farming',
      },
      filter: true,
    },
    {
      key: 'alc_grade',
      label: 'Land classification (ALC)',
      kind: 'choice',
      options: {
        '1': 'Grade 1 (excellent)',
        '2': 'Grade 2 (very good)',
        '3': 'Grade 3 (good to moderate)',
        '4': 'Grade 4 (poor)',
        '5': 'Grade 5 (very poor)',
      },
      filter: true,
    },
    {
      key: 'soil',
      label: 'Soil type',
      kind: 'choice',
      options: { clay: 'Clay', loam: 'Loam', sandy: 'Sandy', silt: 'Silt', chalk: 'Chalk', peat: 'Peat' },
      filter: true,
    },
    {
      key: 'water',
      label: 'Water supply',
      kind: 'choice',
      options: { mains: 'Mains', borehole: 'Borehole', spring: 'Spring', watercourse: 'Stream or river', none: 'None' },
    },
    { key: 'buildings', label: 'Buildings', kind: 'text', maxLength: 120 },
    {
      key: 'designations',
      label: 'Designations',
      kind: 'choices',
      options: {
        sssi: 'Site of Special Scientific Interest (SSSI)',
        nvz: 'Nitrate Vulnerable Zone (NVZ)',
        'national-park': 'National Park',
        'national-landscape': 'National Landscape (AONB)',
        'green-belt': 'Green Belt',
        'scheduled-monument': 'Scheduled monument on the land',
      },
      filter: true,
    },
    {
      key: 'env_scheme_list',
      label: 'Environmental schemes',
      kind: 'choices',
      options: {
        sfi: 'Sustainable Farming Incentive (England)',
        'countryside-stewardship': 'Countryside Stewardship (England)',
        'environmental-stewardship': 'Environmental Stewardship (England)',
        aecs: 'Agri-Environment Climate Scheme (Scotland)',
        other: 'Another scheme',
      },
      filter: true,
      hint: 'Agreements the land is in, or entitled to, that pass with it.',
    },
    { key: 'env_schemes', label: 'Environmental scheme details', kind: 'text', maxLength: 120 },
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
    {
      key: 'seed_category',
      label: 'Certified seed category',
      kind: 'choice',
      options: {
        'pre-basic': 'Pre-basic',
        basic: 'Basic',
        c1: 'C1 (first generation)',
        c2: 'C2 (second generation)',
        hvs: 'Higher Voluntary Standard',
      },
      filter: true,
    },
    { key: 'germination', label: 'Germination', kind: 'integer', min: 0, max: 100, unit: '%', range: true },
    { key: 'tgw', label: 'Thousand grain weight', kind: 'decimal', min: 0.1, max: 1000, unit: 'g' },
    { key: 'organic', label: 'Organic', kind: 'yes-no' },
  ],
  services: [
    {
      key: 'trade',
      label: 'Trade',
      kind: 'choice',
      options: {
        contractor: 'Agricultural contractor',
        vet: 'Vet',
        agronomist: 'Agronomist',
        haulier: 'Haulier',
        shearer: 'Shearer',
        'foot-trimmer': 'Foot trimmer',
        fencer: 'Fencer',
        other: 'Other',
      },
      filter: true,
    },
    { key: 'coverage_miles', label: 'Coverage radius', kind: 'integer', min: 1, max: 500, unit: 'miles', range: true },
  ],
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

/** Whether a field applies to a listing with these values (a cattle-only field to cattle). */
export function fieldApplies(field: CategoryField, values: Readonly<Record<string, unknown>>): boolean {
  return !field.species || field.species.includes(values['species'] as Species);
}

/** Today in the UK, as YYYY-MM-DD (what "in the future" and "valid on" mean). */
export function todayInUk(now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/**
 * The first thing wrong with one field's value (undefined when valid or empty: category fields are
 * optional). `values`: the listing's other field values, for the rules between fields (a cattle-only
 * field, one ear tag per head).
 */
export function categoryFieldError(
  field: CategoryField,
  value: unknown,
  values: Readonly<Record<string, unknown>> = {},
): string | undefined {
  if (isEmptyFieldValue(value)) return undefined;
  if (!fieldApplies(field, values)) {
    return `${field.label} applies to ${(field.species ?? []).map((species) => SPECIES[species].toLowerCase()).join(', ')} only`;
  }
  switch (field.kind) {
    case 'text':
      if (typeof value !== 'string') return `${field.label} must be text`;
      if (hasControlCharacters(value, 'singleLine')) return `${field.label} must be on one line`;
      if (value.trim().length > field.maxLength) return `${field.label} must be at most ${field.maxLength} characters`;
      return field.format && !FIELD_FORMATS[field.format].normalise(value) ? FIELD_FORMATS[field.format].message(field.label) : undefined;
    case 'list': {
      if (typeof value !== 'string') return `${field.label} must be text`;
      const items = listItems(value);
      const format = FIELD_FORMATS[field.format];
      const wrong = items.find((item) => !format.normalise(item));
      if (wrong) return `${format.message(field.label)} (“${wrong.slice(0, 30)}” is not)`;
      const heads = field.perHeadOf ? Number(values[field.perHeadOf]) : NaN;
      if (Number.isInteger(heads) && items.length > heads)
        return `${field.label}: at most one per head (${items.length} tags for ${heads} head)`;
      if (items.length > field.maxItems) return `${field.label}: at most ${field.maxItems}`;
      const stored = items.map((item) => format.normalise(item));
      return new Set(stored).size < stored.length ? `${field.label}: each tag once` : undefined;
    }
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
    case 'choices': {
      const chosen = choicesOf(value);
      if (!chosen || chosen.some((item) => !(item in field.options))) {
        return `${field.label} must be a list of: ${Object.values(field.options).join(', ')}`;
      }
      return new Set(chosen).size < chosen.length ? `${field.label}: each once` : undefined;
    }
    case 'yes-no':
      return typeof value === 'boolean' ? undefined : `${field.label} must be yes or no`;
    case 'date':
      if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) {
        return `${field.label} must be a date (YYYY-MM-DD)`;
      }
      return field.past && value > todayInUk() ? `${field.label} must not be in the future` : undefined;
  }
}

/** A value that gives nothing (category fields are optional): absent, empty text, no choices. */
export function isEmptyFieldValue(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

/** Several choices as given: a list of keys, or keys separated by commas (a form's, a URL's); undefined when neither. */
export function choicesOf(value: unknown): string[] | undefined {
  if (typeof value === 'string') return listItems(value);
  return Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.map((item) => item.trim()) : undefined;
}

/** A valid value as it is stored: numbers as numbers, text trimmed, formatted text in its official form (lists one item per line). */
export function storedFieldValue(field: CategoryField, value: unknown): AttributeValue {
  if (field.kind === 'integer' || field.kind === 'decimal') return Number(value);
  // In the declared order, so two listings with the same choices store the same list.
  if (field.kind === 'choices') return Object.keys(field.options).filter((key) => choicesOf(value)?.includes(key));
  if (typeof value !== 'string') return value as boolean;
  if (field.kind === 'list')
    return listItems(value)
      .map((item) => FIELD_FORMATS[field.format].normalise(item) as string)
      .join('\n');
  if (field.kind === 'text' && field.format) return FIELD_FORMATS[field.format].normalise(value) as string;
  return value.trim();
}

/** What others than the owner are shown of a stored field value (its visibility); undefined shows nothing. */
export function shownFieldValue(field: CategoryField, stored: AttributeValue): AttributeValue {
  if (field.visibility === 'owner-only') return ON_FILE;
  if (field.visibility === 'masked' && typeof stored === 'string' && field.kind === 'text' && field.format) {
    return FIELD_FORMATS[field.format].mask?.(stored) ?? ON_FILE;
  }
  return stored;
}

/** What an owner-only value reads as to everyone else: "Serial number / PIN: on file". */
export const ON_FILE = 'on file';

/** A listing's field values as someone other than its owner may see them (CategoryField visibility). */
export function visibleAttributes(
  fields: readonly CategoryField[],
  attributes: Readonly<Record<string, AttributeValue>>,
): Record<string, AttributeValue> {
  const shown: Record<string, AttributeValue> = {};
  for (const field of fields) {
    const stored = attributes[field.key];
    if (stored !== undefined) shown[field.key] = shownFieldValue(field, stored);
  }
  return shown;
}

/** A date field's derived "valid until" (test date + the days it stays valid), or undefined. */
export function validUntil(field: CategoryField, value: unknown): string | undefined {
  return field.kind === 'date' && field.validFor && typeof value === 'string' ? addDays(value, field.validFor.days) : undefined;
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
  wantedRangeOnly: (name: string) => `${name} is not a range: a wanted ad gives from and to values (a name ending _min or _max)`,
  notFound: 'Listing Not Found',
  cannotSaveOwn: 'You cannot save your own listing.',
  /** The declaration asked before a person's first listing (the terms: sellers must be 18 or over). */
  overEighteenLabel: 'I confirm I am 18 or over',
  overEighteenRequired: 'Please confirm you are 18 or over to post a listing.',
} as const;

/** The owner's appeal against a listing staff hid (issue 23 §5): once per listing, decided by staff in the inbox. */
export const APPEAL_RULES = {
  text: { label: 'Appeal', minLength: 10, maxLength: 1000 },
} as const satisfies Record<string, TextRule>;

export const APPEAL_TEXTS = {
  alreadyAppealed: 'You have already appealed against hiding this listing; our team decides each appeal once.',
  notHiddenByStaff: 'Only a listing our team has hidden can be appealed.',
  hiddenWithAccount: 'This listing is hidden because your account is suspended; write to us through the contact page instead.',
  caseOpen:
    'Our team hid this listing and has not closed the case yet, so it cannot be deleted now; it can be deleted once they have decided.',
  caseClosed: 'Our team has closed the case about this listing; it stays hidden and you may delete it from My Listings.',
  received: 'Thank you. Our team will look at your appeal within 3 days and tell you what they decide.',
} as const;
