import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { FieldValidationException } from '../../../common/errors.js';
import { collectMessages, repeatedParameters, VALIDATOR_OPTIONS } from '../../../common/validation.js';
import type { CategorySlug } from '../../../contracts/categories.js';
import {
  type DateRange,
  fieldsFor,
  isFilterable,
  type ListingType,
  type ListingSort,
  PAGE_SIZE,
  PRICE_MAX_POUNDS,
  type PriceUnit,
  type RentSubcategory,
} from '../../../contracts/listings.js';
import { canonicalPostcode } from '../../../contracts/postcodes.js';
import { controlCharactersToSpaces } from '../../../contracts/text-rules.js';
import { addDays, listItems } from '../../../contracts/field-formats.js';
import { ListingSearchRequest } from '../dto/listing.request.js';
import type { AttributeMatch } from './search-sql.js';

/** The version of SearchQuery's stored form (searchQueryToJson); a stored query of another version is refused. */
export const SEARCH_QUERY_VERSION = 1;
/** Miles around a place when the search gives none. */
export const DEFAULT_RADIUS_MILES = 25;

/**
 * What a browse or search asks for, checked (parseSearchQuery): the one value a browse URL, a saved
 * search and an alert share. It holds only what the asker chose, never what the database knows (a
 * place is its id, resolved to coordinates when searched), so a stored query means the same later.
 */
export interface SearchQuery {
  text?: string;
  category?: CategorySlug;
  subcategory?: RentSubcategory;
  type?: ListingType;
  minPricePence?: number;
  maxPricePence?: number;
  /**
   * The unit min and max price are in (a wanted ad's "up to £120 per head"): a listing priced in
   * another unit is compared only where its own quantity converts it (search-sql's priceInUnit).
   * Only with a price bound.
   */
  priceUnit?: PriceUnit;
  /** A place id from GET /api/places: a town or village's, or a postcode or outcode ("EX20 1AB", "TA1"). */
  location?: string;
  /** Only with a location. */
  radiusMiles?: number;
  verifiedSellersOnly?: boolean;
  featuredOnly?: boolean;
  postedWithin?: Exclude<DateRange, 'all'>;
  /** The category's own range fields, in the category's order (`hours_max=3000` is { key: 'hours', max: 3000 }). */
  attributeRanges: AttributeRange[];
  /** The category's filtered choices, yes-nos and valid-on dates (`tb_status=otf`, `pre_movement_test_valid_on=2027-01-10`); absent when none. */
  attributeFilters?: AttributeFilter[];
  sort: ListingSort;
}

/**
 * A choice or yes-no field equal to a value, a several-choices field holding any of some options,
 * or a date field whose validity (CategoryField validFor) covers a day.
 */
export type AttributeFilter =
  { key: string; equals: string | boolean } | { key: string; anyOf: string[] } | { key: string; validOn: string };

export interface AttributeRange {
  key: string;
  min?: number;
  max?: number;
}

/** Where in a search's answers a page starts, and how long it is: a browse URL's, not the query's. */
export interface SearchPosition {
  cursor?: string;
  limit: number;
  /** false: the page is not counted (its total is null), for a list that shows no count. */
  counted?: false;
}

/** A search as a URL or stored form gives it: the query and the page, or every problem found, by parameter. */
export type ParsedSearch = { query: SearchQuery; position: SearchPosition } | { errors: Record<string, string> };

/** The stored form of a query (a saved search, an alert): its URL parameters, with the version they were written in. */
export interface StoredSearchQuery {
  version: number;
  params: Record<string, string>;
}

/**
 * The one check of a search's parameters (GET /api/listings, a stored query): each value against
 * its rule (ListingSearchRequest's, the contract's), then prices in pence and the category's own
 * ranges. Parameters it does not know are ignored, as the API always has.
 */
export function parseSearchQuery(input: URLSearchParams | object): ParsedSearch {
  const raw = input instanceof URLSearchParams ? paramsRecord(input) : (input as Record<string, unknown>);
  const repeated = repeatedParameters(raw);
  if (Object.keys(repeated).length > 0) return { errors: repeated };
  const request = plainToInstance(ListingSearchRequest, raw);
  const invalid = validateSync(request, VALIDATOR_OPTIONS);
  if (invalid.length > 0) return { errors: collectMessages(invalid) };
  try {
    // Words from a URL, made one line: a control character would otherwise reach a saved search's name and its
    // alert e-mails' subject, where the name rule refuses what a person types.
    const text = controlCharactersToSpaces(request.q ?? '').trim() || undefined;
    const category = request.category as CategorySlug | undefined;
    const subcategory = request.subcategory as RentSubcategory | undefined;
    const minPricePence = searchPence('min_price', request.min_price);
    const maxPricePence = searchPence('max_price', request.max_price);
    if (minPricePence !== undefined && maxPricePence !== undefined && minPricePence > maxPricePence) {
      throw new FieldValidationException({ max_price: 'max_price must not be below min_price' });
    }
    const date = request.date as DateRange | undefined;
    const sort = (request.sort as ListingSort | undefined) ?? (text ? 'relevance' : 'newest');
    if (sort === 'price-per-head' && category !== 'livestock') {
      throw new FieldValidationException({ sort: 'sort=price-per-head needs category=livestock' });
    }
    const priced = minPricePence !== undefined || maxPricePence !== undefined;
    const query: SearchQuery = {
      text,
      category,
      subcategory,
      type: request.type === 'buy' ? 'sale' : (request.type as ListingType | undefined),
      minPricePence,
      maxPricePence,
      priceUnit: priced ? (request.price_unit as PriceUnit | undefined) : undefined,
      // A postcode however typed ("ex201ab"): one spelling, so equal searches share answers.
      location: request.location && (canonicalPostcode(request.location) ?? request.location),
      radiusMiles: request.location ? (request.radius ?? DEFAULT_RADIUS_MILES) : undefined,
      verifiedSellersOnly: request.verified,
      featuredOnly: request.featured,
      postedWithin: date && date !== 'all' ? date : undefined,
      attributeRanges: attributeRanges(category, subcategory, raw),
      attributeFilters: attributeFilters(category, subcategory, raw),
      sort,
    };
    return {
      query: withoutAbsent(query),
      position: withoutAbsent({
        cursor: request.cursor,
        limit: request.limit ?? PAGE_SIZE,
        counted: request.count === false ? (false as const) : undefined,
      }),
    };
  } catch (error) {
    if (error instanceof FieldValidationException) return { errors: error.fields };
    throw error;
  }
}

/** parseSearchQuery, with its problems as the API's 400. */
export function searchQueryOrFail(input: URLSearchParams | object): { query: SearchQuery; position: SearchPosition } {
  const parsed = parseSearchQuery(input);
  if ('errors' in parsed) throw new FieldValidationException(parsed.errors);
  return parsed;
}

/** The query as GET /api/listings parameters (a browse URL), with the page's position when given; parseSearchQuery reads it back. */
export function searchQueryParams(query: SearchQuery, position?: SearchPosition): URLSearchParams {
  const params = new URLSearchParams();
  const put = (name: string, value: string | number | boolean | undefined) => {
    if (value !== undefined) params.set(name, String(value));
  };
  put('q', query.text);
  put('category', query.category);
  put('subcategory', query.subcategory);
  put('type', query.type);
  put('min_price', query.minPricePence === undefined ? undefined : query.minPricePence / 100);
  put('max_price', query.maxPricePence === undefined ? undefined : query.maxPricePence / 100);
  put('price_unit', query.priceUnit);
  put('location', query.location);
  put('radius', query.location ? query.radiusMiles : undefined);
  put('verified', query.verifiedSellersOnly);
  put('featured', query.featuredOnly);
  put('date', query.postedWithin);
  for (const range of query.attributeRanges) {
    put(`${range.key}_min`, range.min);
    put(`${range.key}_max`, range.max);
  }
  for (const filter of query.attributeFilters ?? []) {
    if ('validOn' in filter) put(`${filter.key}_valid_on`, filter.validOn);
    else if ('anyOf' in filter) put(filter.key, filter.anyOf.join(','));
    else put(filter.key, typeof filter.equals === 'boolean' ? (filter.equals ? 'yes' : 'no') : filter.equals);
  }
  put('sort', query.sort);
  put('cursor', position?.cursor);
  put('limit', position?.limit);
  put('count', position?.counted);
  return params;
}

/** The query's stored form, for a saved search or an alert (JSON). */
export function searchQueryToJson(query: SearchQuery): StoredSearchQuery {
  return { version: SEARCH_QUERY_VERSION, params: Object.fromEntries(searchQueryParams(query)) };
}

/** A stored query read back, checked as a URL's would be; one of another version is refused, not guessed at. */
export function searchQueryFromJson(stored: unknown): { query: SearchQuery } | { errors: Record<string, string> } {
  const { version, params } = (stored ?? {}) as Partial<StoredSearchQuery>;
  if (version !== SEARCH_QUERY_VERSION) return { errors: { version: `version must be ${SEARCH_QUERY_VERSION}` } };
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return { errors: { params: 'params must be an object' } };
  if (Object.values(params).some((value) => typeof value !== 'string')) return { errors: { params: 'params must all be text' } };
  const parsed = parseSearchQuery(params);
  return 'errors' in parsed ? parsed : { query: parsed.query };
}

/** URL parameters as Fastify's query parser gives them: a repeated name becomes a list. */
function paramsRecord(params: URLSearchParams): Record<string, string | string[]> {
  const record: Record<string, string | string[]> = {};
  for (const name of new Set(params.keys())) {
    const values = params.getAll(name);
    record[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return record;
}

/** The object without its undefined members: two equal queries compare equal, and serialise alike. */
function withoutAbsent<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined)) as T;
}

/**
 * A price filter in pence, checked after the conversion: pounds that overflow it (1e308 × 100 is
 * Infinity) or lie beyond any listing's price are refused, not sent to PostgreSQL.
 */
function searchPence(name: 'min_price' | 'max_price', pounds: number | undefined): number | undefined {
  if (pounds === undefined) return undefined;
  const pence = Math.round(pounds * 100);
  if (!Number.isSafeInteger(pence) || pence < 0 || pence > PRICE_MAX_POUNDS * 100) {
    throw new FieldValidationException({ [name]: `${name} must be a number from 0 to ${PRICE_MAX_POUNDS.toLocaleString('en-GB')}` });
  }
  return pence;
}

/** The `<key>_min` / `<key>_max` query parameters of the category's range fields, each within the field's own bounds. */
function attributeRanges(category: CategorySlug | undefined, subcategory: RentSubcategory | undefined, raw: Record<string, unknown>) {
  if (!category) return [];
  const ranges: AttributeRange[] = [];
  const errors: Record<string, string> = {};
  for (const field of fieldsFor(category, subcategory)) {
    if ((field.kind !== 'integer' && field.kind !== 'decimal') || !field.range) continue;
    const range: AttributeRange = { key: field.key };
    for (const bound of ['min', 'max'] as const) {
      const name = `${field.key}_${bound}`;
      const value = raw[name];
      if (value === undefined || value === '') continue;
      const number = Number(value);
      if (typeof value !== 'string' || !Number.isFinite(number)) errors[name] = `${name} must be a number`;
      else if (number < field.min || number > field.max) errors[name] = `${name} must be from ${field.min} to ${field.max}`;
      else range[bound] = number;
    }
    if (range.min !== undefined && range.max !== undefined && range.min > range.max)
      errors[`${field.key}_max`] = `${field.key}_max must not be below ${field.key}_min`;
    if (range.min !== undefined || range.max !== undefined) ranges.push(range);
  }
  if (Object.keys(errors).length > 0) throw new FieldValidationException(errors);
  return ranges;
}

/**
 * The category's filters other than ranges: `<key>=<choice>` or `<key>=yes|no` for a field declared
 * with `filter`, `<key>_valid_on=<date>` for a date that stays valid some days. Absent when none.
 */
function attributeFilters(
  category: CategorySlug | undefined,
  subcategory: RentSubcategory | undefined,
  raw: Record<string, unknown>,
): AttributeFilter[] | undefined {
  if (!category) return undefined;
  const filters: AttributeFilter[] = [];
  const errors: Record<string, string> = {};
  for (const field of fieldsFor(category, subcategory)) {
    const name = field.kind === 'date' ? `${field.key}_valid_on` : field.key;
    const value = raw[name];
    if (value === undefined || value === '' || !isFilterable(field)) continue;
    if (typeof value !== 'string') errors[name] = `${name} must be text`;
    else if (field.kind === 'choice') {
      if (value in field.options) filters.push({ key: field.key, equals: value });
      else errors[name] = `${name} must be one of: ${Object.keys(field.options).join(', ')}`;
    } else if (field.kind === 'choices') {
      // Has any of them: `designations=sssi,nvz`.
      const anyOf = [...new Set(listItems(value))];
      const unknown = anyOf.find((option) => !(option in field.options));
      if (anyOf.length > 0 && !unknown) filters.push({ key: field.key, anyOf });
      else errors[name] = `${name} must be one or more of, separated by commas: ${Object.keys(field.options).join(', ')}`;
    } else if (field.kind === 'text') {
      // A make from GET /api/listings/makes: matched as the sellers wrote it.
      if (value.trim().length <= field.maxLength) filters.push({ key: field.key, equals: value.trim() });
      else errors[name] = `${name} must be at most ${field.maxLength} characters`;
    } else if (field.kind === 'yes-no') {
      if (value === 'yes' || value === 'no') filters.push({ key: field.key, equals: value === 'yes' });
      else errors[name] = `${name} must be yes or no`;
    } else if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) filters.push({ key: field.key, validOn: value });
    else errors[name] = `${name} must be a date (YYYY-MM-DD)`;
  }
  if (Object.keys(errors).length > 0) throw new FieldValidationException(errors);
  return filters.length > 0 ? filters : undefined;
}

/**
 * The filters as the database matches them: a valid-on day becomes the test dates it covers (a
 * test within the `days` before the day, the day itself included).
 */
export function attributeMatches(query: SearchQuery): AttributeMatch[] | undefined {
  if (!query.attributeFilters || !query.category) return undefined;
  const fields = fieldsFor(query.category, query.subcategory);
  return query.attributeFilters.map((filter) => {
    if (!('validOn' in filter)) return filter;
    const field = fields.find((candidate) => candidate.key === filter.key);
    const days = field?.kind === 'date' ? (field.validFor?.days ?? 0) : 0;
    return { key: filter.key, dateFrom: addDays(filter.validOn, -days), dateTo: filter.validOn };
  });
}
