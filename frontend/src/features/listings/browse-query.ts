import type { CategorySlug } from '@contracts/categories';
import { type DATE_RANGES, fieldsFor, RENT_SUBCATEGORIES, type CategoryField, type RentSubcategory } from '@contracts/listings';
import { categoryBySlug, CATEGORIES } from '@contracts/categories';

/** The URL's filter names, as the API takes them; `place` is the place's label, shown in the picker. */
export const SCALAR_FILTERS = [
  'q',
  'category',
  'subcategory',
  'type',
  'min_price',
  'max_price',
  'location',
  'radius',
  'verified',
  'featured',
  'date',
  'sort',
  'limit',
] as const;

/** SPEC §2 Browse: the tabs (a category slug, '' for All), every category, Livestock included. */
export const BROWSE_TABS: ReadonlyArray<{ value: string; label: string }> = [
  { value: '', label: 'All' },
  ...CATEGORIES.map((category) => ({ value: category.slug, label: category.name })),
];

export const SORT_LABELS = {
  newest: 'Newest first',
  oldest: 'Oldest first',
  'price-low': 'Price: low to high',
  'price-high': 'Price: high to low',
  popular: 'Most viewed',
  nearest: 'Nearest first',
  relevance: 'Best match',
  'price-per-head': 'Price per head: low to high',
} as const;
export type SortValue = keyof typeof SORT_LABELS;

export const DATE_LABELS: Readonly<Record<keyof typeof DATE_RANGES, string>> = {
  all: 'Any time',
  today: 'Today',
  week: 'Past week',
  month: 'Past month',
  quarter: 'Past 3 months',
};

export const RADIUS_CHOICES = [5, 10, 25, 50, 100, 250] as const;
export const DEFAULT_RADIUS = 25;

/** The sorts that make sense for these filters: nearest needs a place, relevance words, price per head livestock. */
export function sortChoices(params: URLSearchParams): SortValue[] {
  const sorts: SortValue[] = ['newest', 'oldest', 'price-low', 'price-high', 'popular'];
  if (params.get('category') === 'livestock') sorts.push('price-per-head');
  if (params.get('location')) sorts.push('nearest');
  if (params.get('q')?.trim()) sorts.unshift('relevance');
  return sorts;
}

/** The category's range fields (year, hours, acres, head count...) offered as min/max filters. */
export function rangeFields(params: URLSearchParams): Array<Extract<CategoryField, { kind: 'integer' | 'decimal' }>> {
  const category = categoryBySlug(params.get('category') ?? '');
  if (!category) return [];
  const sub = params.get('subcategory') ?? '';
  const subcategory = (RENT_SUBCATEGORIES as readonly string[]).includes(sub) ? (sub as RentSubcategory) : undefined;
  return fieldsFor(category.slug as CategorySlug, subcategory).filter(
    (field): field is Extract<CategoryField, { kind: 'integer' | 'decimal' }> =>
      (field.kind === 'integer' || field.kind === 'decimal') && field.range === true,
  );
}

/**
 * The category's other filters (CategoryField `filter`, a date with `validFor`): a choice or yes/no
 * by its key (`tb_status=otf`, `organic=yes`), a date's validity by `<key>_valid_on`.
 */
export function valueFilters(params: URLSearchParams): ValueFilter[] {
  const category = categoryBySlug(params.get('category') ?? '');
  if (!category) return [];
  const sub = params.get('subcategory') ?? '';
  const subcategory = (RENT_SUBCATEGORIES as readonly string[]).includes(sub) ? (sub as RentSubcategory) : undefined;
  return fieldsFor(category.slug as CategorySlug, subcategory).flatMap((field): ValueFilter[] => {
    const { key: name, label } = field;
    // Several choices are offered one at a time here; the API takes several (has any of).
    if ((field.kind === 'choice' || field.kind === 'choices') && field.filter) {
      return [{ name, label, input: 'select', choices: Object.entries(field.options) }];
    }
    if (field.kind === 'yes-no' && field.filter) return [{ name, label, input: 'select', choices: YES_NO }];
    if (field.kind === 'text' && field.filter) return [{ name, label, input: 'text' }];
    if (field.kind === 'date' && field.validFor) {
      return [{ name: `${name}_valid_on`, label: `${field.validFor.label.replace(/ until$/, '')} on`, input: 'date' }];
    }
    return [];
  });
}

export interface ValueFilter {
  name: string;
  label: string;
  input: 'select' | 'date' | 'text';
  choices?: ReadonlyArray<readonly [string, string]>;
}
const YES_NO = [
  ['yes', 'Yes'],
  ['no', 'No'],
] as const;

/** Names of the range parameters the current category allows. */
function rangeNames(params: URLSearchParams): string[] {
  return rangeFields(params).flatMap((field) => [`${field.key}_min`, `${field.key}_max`]);
}

/**
 * The filters kept from a URL or a form: known names with a value, nothing else; choices outside
 * their lists dropped (a sort that no longer applies, a subcategory without rentals).
 */
export function normaliseFilters(input: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  const take = (name: string) => input.get(name)?.trim() ?? '';
  for (const name of SCALAR_FILTERS) {
    const value = take(name);
    if (value !== '') out.set(name, value);
  }
  if (out.get('type') === 'buy') out.set('type', 'sale');
  if (!['sale', 'rent'].includes(out.get('type') ?? '')) out.delete('type');
  if (out.get('verified') !== 'true') out.delete('verified');
  if (out.get('featured') !== 'true') out.delete('featured');
  if (out.get('date') === 'all') out.delete('date');
  if (!CATEGORIES.some((category) => category.slug === out.get('category'))) out.delete('category');
  if (out.get('category') !== 'rentals') out.delete('subcategory');
  if (!out.get('location')) out.delete('radius');
  else if (take('place')) out.set('place', take('place'));
  for (const name of [...rangeNames(out), ...valueFilters(out).map((filter) => filter.name)]) {
    const value = take(name);
    if (value !== '') out.set(name, value);
  }
  const sort = out.get('sort');
  if (sort && !sortChoices(out).includes(sort as SortValue)) out.delete('sort');
  const cursor = take('cursor');
  if (cursor) out.set('cursor', cursor);
  return out;
}

/** What goes to GET /api/listings: the filters without the picker's label. */
export function apiQuery(filters: URLSearchParams, extra: Record<string, string> = {}): URLSearchParams {
  const query = new URLSearchParams(filters);
  query.delete('place');
  for (const [name, value] of Object.entries(extra)) query.set(name, value);
  return query;
}

/** The filters that narrow the results (for the badge); the text, sort and page do not count. */
export function activeFilterCount(filters: URLSearchParams): number {
  const counted = new Set<string>();
  for (const name of filters.keys()) {
    if (['q', 'sort', 'cursor', 'place', 'radius', 'limit'].includes(name)) continue;
    if (name === 'min_price' || name === 'max_price') counted.add('price');
    else if (name.endsWith('_min') || name.endsWith('_max')) counted.add(name.replace(/_(min|max)$/, ''));
    else counted.add(name);
  }
  return counted.size;
}

/** The page's own URL for these filters (shareable), without the cursor unless asked. */
export function browseHref(filters: URLSearchParams, keepCursor = false): string {
  const params = new URLSearchParams(filters);
  if (!keepCursor) params.delete('cursor');
  const text = params.toString();
  return text ? `/browse?${text}` : '/browse';
}

/** "24 listings", "1000+ listings", "1 listing". */
export function resultCountText(total: number | null, lowerBound: boolean): string {
  if (total === null) return '';
  const shown = `${total.toLocaleString('en-GB')}${lowerBound ? '+' : ''}`;
  return `${shown} ${total === 1 && !lowerBound ? 'listing' : 'listings'}`;
}
