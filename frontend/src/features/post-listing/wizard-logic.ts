import { CATEGORIES, type CategorySlug } from '@contracts/categories';
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '@contracts/images';
import {
  categoryFieldError,
  choicesOf,
  fieldApplies,
  fieldsFor,
  LISTING_RULES,
  LISTING_TYPES,
  type ListingType,
  LISTING_TEXTS,
  PRICE_MAX_POUNDS,
  priceUnitsFor,
  RENT_SUBCATEGORIES,
  SALE_CATEGORIES,
  type CategoryField,
  type RentSubcategory,
} from '@contracts/listings';
import { textFieldError, trimText } from '@contracts/text-rules';
import type { components } from '../../lib/api-types';
import { DEFAULT_RADIUS } from '../listings/browse-query';

export type ListingRequest = components['schemas']['ListingRequest'];

export const STEPS = ['Upload Images', 'Basic Details', 'Description', 'Review & Submit'] as const;
export const ACCEPTED_TYPES = ['image/jpeg', 'image/jpg', 'image/png', 'image/webp'] as const;
export const DESCRIPTION_MAX = LISTING_RULES.description.maxLength;

/** A photo in the draft: only uploaded ones are kept (their id), never the file's bytes. */
export interface DraftImage {
  id: string;
  name: string;
}

/** The wizard's values (SPEC §3 "Listing draft", with our additions), as kept in localStorage. */
export interface ListingDraft {
  type: '' | ListingType;
  title: string;
  category: string;
  subcategory: string;
  price: string;
  price_unit: string;
  vat: string;
  location: string;
  place_id: string;
  description: string;
  attributes: Record<string, string>;
  /** A wanted ad: the ranges sought, as typed, by browse's names (`age_months_min`), and the miles the buyer will fetch from. */
  wanted_ranges: Record<string, string>;
  wanted_radius: string;
  images: DraftImage[];
  step: number;
}

export const EMPTY_DRAFT: ListingDraft = {
  type: '',
  title: '',
  category: '',
  subcategory: '',
  price: '',
  price_unit: 'total',
  vat: 'no-vat',
  location: '',
  place_id: '',
  description: '',
  attributes: {},
  wanted_ranges: {},
  wanted_radius: String(DEFAULT_RADIUS),
  images: [],
  step: 0,
};

export type DraftField =
  | 'type'
  | 'title'
  | 'category'
  | 'subcategory'
  | 'price'
  | 'location'
  | 'description'
  | 'images'
  | `attributes.${string}`
  | `wanted_ranges.${string}`;

/** Where each field is asked: errors take the user to the first step with one. */
export function stepOf(field: string): number {
  if (field === 'images') return 0;
  if (field === 'description') return 2;
  if (field === 'confirm_over_18' || field === 'seller_type' || field === 'business_name') return 3;
  return 1;
}

/** SPEC §2: For Sale offers the sale categories; For Rent forces Rentals and asks what is rented. */
export function categoryChoices(type: ListingDraft['type']): Array<{ value: string; label: string }> {
  const slugs: readonly string[] = type === 'rent' ? RENT_SUBCATEGORIES : SALE_CATEGORIES;
  return slugs.map((slug) => ({ value: slug, label: CATEGORIES.find((c) => c.slug === slug)?.name ?? slug }));
}

/** The units the draft may be priced in: its category's (a rental: what is rented), or every unit of its type before one is chosen. */
export function priceUnits(type: ListingDraft['type'], category = ''): readonly string[] {
  return priceUnitsFor(type || 'sale', CATEGORIES.find((c) => c.slug === category)?.slug);
}

/** Switching type: For Sale or Wanted clears a Rentals category; For Rent forces Rentals and clears the subcategory. */
export function withType(draft: ListingDraft, type: ListingType): ListingDraft {
  if (type === draft.type) return draft;
  const units = priceUnits(type);
  const priceUnit = units.includes(draft.price_unit) ? draft.price_unit : (units[0] ?? 'total');
  const cleared = { ...draft, type, subcategory: '', attributes: {}, wanted_ranges: {}, price_unit: priceUnit };
  return type === 'rent'
    ? { ...cleared, category: 'rentals' }
    : { ...cleared, category: draft.category === 'rentals' ? '' : draft.category };
}

/**
 * What a wanted ad's buyer is asked of the category's fields: the range fields as ranges
 * (wantedRangeFields), and the details a buyer can want (a breed, a condition, a scheme); not
 * what identifies the seller's own animals or machine, or dates of their tests.
 */
function wantedAsks(field: CategoryField): 'range' | 'detail' | undefined {
  if ((field.kind === 'integer' || field.kind === 'decimal') && field.range) return 'range';
  if (field.visibility || field.kind === 'list' || field.kind === 'date') return undefined;
  return 'detail';
}

/** A wanted ad's range fields (age, head count, hours...), each asked as from and to. */
export function wantedRangeFields(draft: ListingDraft): Array<Extract<CategoryField, { kind: 'integer' | 'decimal' }>> {
  if (draft.type !== 'wanted') return [];
  return categoryFields(draft).filter(
    (field): field is Extract<CategoryField, { kind: 'integer' | 'decimal' }> =>
      wantedAsks(field) === 'range' && fieldApplies(field, draft.attributes),
  );
}

/** The category fields the chosen category (or rented thing) has, those of another species left out. */
export function draftFields(draft: ListingDraft): readonly CategoryField[] {
  return categoryFields(draft).filter(
    (field) => fieldApplies(field, draft.attributes) && (draft.type !== 'wanted' || wantedAsks(field) === 'detail'),
  );
}

function categoryFields(draft: ListingDraft): readonly CategoryField[] {
  if (draft.type === 'rent') {
    const sub = (RENT_SUBCATEGORIES as readonly string[]).includes(draft.subcategory) ? (draft.subcategory as RentSubcategory) : undefined;
    return sub ? fieldsFor('rentals', sub) : fieldsFor('rentals');
  }
  return CATEGORIES.some((c) => c.slug === draft.category) ? fieldsFor(draft.category as CategorySlug) : [];
}

/** The draft's category field values as the API takes them (numbers, yes/no as true/false). */
function draftValues(draft: ListingDraft): Record<string, unknown> {
  return Object.fromEntries(categoryFields(draft).map((field) => [field.key, attributeValue(field, draft.attributes[field.key])]));
}

/** The price typed ("38,500", "£1,200") as a number of pounds, or undefined. */
export function parsePrice(text: string): number | undefined {
  const cleaned = text.replace(/[£,\s]/g, '');
  if (cleaned === '') return undefined;
  const number = Number(cleaned);
  return Number.isFinite(number) ? number : NaN;
}

/**
 * Every problem, field by field, in the SPEC's order (§5 "Post listing"): the messages are the
 * contracts', the same the API gives.
 */
export function validateDraft(draft: ListingDraft): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  if (!(LISTING_TYPES as readonly string[]).includes(draft.type)) errors.type = LISTING_TEXTS.typeRequired;
  const title = textFieldError(LISTING_RULES.title, trimText(draft.title));
  if (title) errors.title = title;
  if (draft.type === 'rent') {
    if (!draft.subcategory) errors.subcategory = LISTING_TEXTS.selectCategory;
    else if (!(RENT_SUBCATEGORIES as readonly string[]).includes(draft.subcategory)) errors.subcategory = LISTING_TEXTS.invalidCategory;
  } else if (!draft.category) errors.category = LISTING_TEXTS.categoryRequired;
  else if (!(SALE_CATEGORIES as readonly string[]).includes(draft.category)) errors.category = LISTING_TEXTS.invalidCategory;
  const price = parsePrice(draft.price);
  if (price === undefined) errors.price = LISTING_TEXTS.priceRequired;
  else if (Number.isNaN(price) || price < 0 || price > PRICE_MAX_POUNDS) {
    errors.price = `Price must be a number from 0 to ${PRICE_MAX_POUNDS.toLocaleString('en-GB')}`;
  }
  const location = textFieldError(LISTING_RULES.location, trimText(draft.location));
  if (location) errors.location = location;
  else if (!draft.place_id) errors.location = LISTING_TEXTS.unknownPlace;
  const description = textFieldError(LISTING_RULES.description, trimText(draft.description));
  if (description) errors.description = description;
  const values = draftValues(draft);
  for (const field of draftFields(draft)) {
    const error = categoryFieldError(field, values[field.key], values);
    if (error) errors[`attributes.${field.key}`] = error;
  }
  Object.assign(errors, wantedRangeErrors(draft));
  // A wanted ad may have no photo: its buyer has nothing to show yet.
  if (draft.images.length === 0 && draft.type !== 'wanted') errors.images = LISTING_TEXTS.imageRequired;
  else if (draft.images.length > IMAGE_LIMITS.maxFiles) errors.images = LISTING_TEXTS.tooManyImages;
  return errors;
}

/** A wanted ad's ranges checked as browse checks them (the API's words), by the API's field names (`wanted_ranges.age_months_max`). */
function wantedRangeErrors(draft: ListingDraft): Partial<Record<DraftField, string>> {
  const errors: Partial<Record<DraftField, string>> = {};
  for (const field of wantedRangeFields(draft)) {
    const bounds: Partial<Record<'min' | 'max', number>> = {};
    for (const bound of ['min', 'max'] as const) {
      const name = `${field.key}_${bound}`;
      const text = draft.wanted_ranges[name]?.trim() ?? '';
      if (text === '') continue;
      const number = Number(text);
      if (!Number.isFinite(number)) errors[`wanted_ranges.${name}`] = `${name} must be a number`;
      else if (number < field.min || number > field.max)
        errors[`wanted_ranges.${name}`] = `${name} must be from ${field.min} to ${field.max}`;
      else bounds[bound] = number;
    }
    if (bounds.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
      errors[`wanted_ranges.${field.key}_max`] = `${field.key}_max must not be below ${field.key}_min`;
    }
  }
  return errors;
}

/** The wanted ad's ranges as the API takes them: numbers, the empty ones left out. */
function wantedRanges(draft: ListingDraft): Record<string, number> {
  const ranges: Record<string, number> = {};
  for (const field of wantedRangeFields(draft)) {
    for (const name of [`${field.key}_min`, `${field.key}_max`]) {
      const text = draft.wanted_ranges[name]?.trim() ?? '';
      if (text !== '') ranges[name] = Number(text);
    }
  }
  return ranges;
}

/** SPEC §5: all errors collected on submit and joined with commas. */
export function joinErrors(errors: Partial<Record<string, string>>): string {
  return Object.values(errors).filter(Boolean).join(', ');
}

function attributeValue(field: CategoryField, text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  if (field.kind === 'integer' || field.kind === 'decimal') return Number(text);
  if (field.kind === 'yes-no') return text === 'yes' ? true : text === 'no' ? false : text;
  // Ticked choices are kept in the draft as their keys joined by commas.
  if (field.kind === 'choices') return choicesOf(text);
  return field.kind === 'list' ? text : text.trim();
}

/** The body of POST/PUT /api/listings (SPEC §3 "Submitted listing payload" with our additions). */
export function listingPayload(draft: ListingDraft): ListingRequest {
  const attributes: Record<string, unknown> = {};
  for (const field of draftFields(draft)) {
    const value = attributeValue(field, draft.attributes[field.key]);
    if (value !== undefined) attributes[field.key] = value;
  }
  return {
    type: draft.type as ListingType,
    category: (draft.type === 'rent' ? 'rentals' : draft.category) as ListingRequest['category'],
    ...(draft.type === 'rent' ? { subcategory: draft.subcategory as NonNullable<ListingRequest['subcategory']> } : {}),
    title: draft.title.trim(),
    description: draft.description.trim(),
    price: parsePrice(draft.price) ?? 0,
    price_unit: draft.price_unit as ListingRequest['price_unit'],
    vat: draft.vat as ListingRequest['vat'],
    location: draft.location.trim(),
    ...(draft.place_id ? { place_id: draft.place_id } : {}),
    images: draft.images.map((image) => image.id),
    attributes,
    ...(draft.type === 'wanted'
      ? { wanted_ranges: wantedRanges(draft), wanted_radius: Number(draft.wanted_radius) || DEFAULT_RADIUS }
      : {}),
  };
}

/** The API's field names mapped to the wizard's (`attributes.year` stays as it is). */
export function fieldOfApi(name: string): string {
  return name === 'place_id' ? 'location' : name;
}

/** A file the browser can refuse before sending (the server judges the bytes again). */
export function fileProblem(file: { type: string; size: number }): string | undefined {
  if (!(ACCEPTED_TYPES as readonly string[]).includes(file.type)) return IMAGE_MESSAGES.wrongType;
  if (file.size > IMAGE_LIMITS.maxFileBytes) return IMAGE_MESSAGES.tooLarge;
  return undefined;
}

/** Moves the photo at `from` to `to` (the first is the main photo). */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  if (to < 0 || to >= list.length || from === to) return [...list];
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item as T);
  return next;
}

/** A draft read back from storage, whatever it holds: unknown keys dropped, wrong types replaced. */
export function restoreDraft(stored: unknown): ListingDraft {
  if (typeof stored !== 'object' || stored === null) return { ...EMPTY_DRAFT };
  const source = stored as Record<string, unknown>;
  const text = (key: keyof ListingDraft) => (typeof source[key] === 'string' ? (source[key] as string) : (EMPTY_DRAFT[key] as string));
  const type = (LISTING_TYPES as readonly unknown[]).includes(source['type']) ? (source['type'] as ListingType) : '';
  const textRecord = (value: unknown): Record<string, string> =>
    typeof value === 'object' && value !== null
      ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      : {};
  const attributes = textRecord(source['attributes']);
  const images = Array.isArray(source['images'])
    ? source['images']
        .filter((image): image is DraftImage => typeof image?.id === 'string' && typeof image?.name === 'string')
        .slice(0, IMAGE_LIMITS.maxFiles)
    : [];
  const step = typeof source['step'] === 'number' && source['step'] >= 0 && source['step'] < STEPS.length ? source['step'] : 0;
  return {
    type,
    title: text('title'),
    category: text('category'),
    subcategory: text('subcategory'),
    price: text('price'),
    price_unit: text('price_unit'),
    vat: text('vat'),
    location: text('location'),
    place_id: text('place_id'),
    description: text('description').slice(0, DESCRIPTION_MAX),
    attributes,
    wanted_ranges: textRecord(source['wanted_ranges']),
    wanted_radius: text('wanted_radius'),
    images,
    step,
  };
}
