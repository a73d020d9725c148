import type { CategorySlug } from '../../contracts/categories.js';
import { CATEGORY_FIELDS, type CategoryField, isFilterable } from '../../contracts/listings.js';

/**
 * The index plan of the category fields search filters on, made from their declarations
 * (contracts/listings.ts), so that declaring a filterable field is all it takes for browse to find
 * its listings through an index at a million listings. Each field gets, by how search matches it
 * (ListingSearchSql):
 * - a value (a choice, a yes-no, a make) or a date that stays valid: a btree of the live listings of
 *   a category by that value, newest first, so a page is read from its top and a count stops at its
 *   cap; and statistics of the value beside the category, so PostgreSQL knows that, say, TB status is
 *   given for cattle only and does not take it and the category as independent (then it expected a
 *   few matches and read every livestock listing to count them, 0.34 s); for a choice or a yes-no,
 *   each value's listings by grid square too, for a search within a radius;
 * - a range (acres, hours): a btree of a category's listings by the number;
 * - several choices ("has any of": designations): an index of each choice's listings, newest first.
 * Every index is partial (only listings with the field), so a field costs what its listings do.
 * The migrations create them (fieldIndexSql); a test checks the migrated database holds every one.
 */

/** How search matches a field, which decides its index. */
export type FieldMatchKind = 'value' | 'range' | 'any-of';

/** One index of the plan: its name, and the SQL that creates it when it is missing. */
export interface FieldIndex {
  name: string;
  create: string;
}

export interface FieldSearchObject {
  key: string;
  match: FieldMatchKind;
  /** Search SQL writes the same expressions (fieldValue, fieldNumber, fieldList). */
  indexes: FieldIndex[];
  /** The statistics object, where PostgreSQL can use one (not for "has any of"). */
  statistics?: FieldIndex;
  /** The values with an index of their own (a choice's options, a yes-no's two): search writes them into its SQL (fieldEquals). */
  options: readonly string[];
}

/** A key written into SQL: the declared keys are lower-case words (checked, never taken from a request). */
function checkedKey(key: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(key)) throw new Error(`A category field key must be lower-case letters, digits and _: ${key}`);
  return key;
}

/** A field's value as text, e.g. `(l."attributes" ->> 'tb_status')`: what an equality or a date compares. */
export function fieldValue(key: string, table = ''): string {
  return `(${table ? `${table}.` : ''}"attributes" ->> '${checkedKey(key)}')`;
}

/** A field's value as a number (a range field's). */
export function fieldNumber(key: string, table = ''): string {
  return `(${fieldValue(key, table)}::numeric)`;
}

/** A field's list of choices, as JSON (a "has any of" field's). */
export function fieldList(key: string, table = ''): string {
  return `(${table ? `${table}.` : ''}"attributes" -> '${checkedKey(key)}')`;
}

/** A choice written into an index's condition: lower-case letters, digits and - (checked). */
function checkedOption(option: string): string {
  if (!/^[a-z0-9-]+$/.test(option)) throw new Error(`A choice must be lower-case letters, digits and -: ${option}`);
  return option;
}

/** A list holding one choice, as search binds it and a choice's index is defined: `["nvz"]`. */
export function oneChoice(option: string): string {
  return JSON.stringify([checkedOption(option)]);
}

/** An index's name, within PostgreSQL's 63 characters (a longer one would be cut, and then not found by the test). */
function indexName(...parts: string[]): string {
  const name = ['listing_field', ...parts.map((part) => part.replaceAll('-', '_')), 'index'].join('_');
  if (name.length > 63) throw new Error(`Index name over 63 characters: ${name}`);
  return name;
}

function matchOf(field: CategoryField): FieldMatchKind | undefined {
  if ((field.kind === 'integer' || field.kind === 'decimal') && field.range) return 'range';
  if (!isFilterable(field)) return undefined;
  return field.kind === 'choices' ? 'any-of' : 'value';
}

function objectsOf(key: string, match: FieldMatchKind, options: readonly string[]): FieldSearchObject {
  const name = indexName(key);
  // A btree of a category's listings with the field, by its value, then `order`; statistics of the value beside the category.
  const btree = (value: string, order: string, more: FieldIndex[] = []): FieldSearchObject => ({
    key,
    match,
    options: more.length > 0 ? options : [],
    indexes: [
      {
        name,
        create: `create index if not exists "${name}" on "listing" ("status", "category_id", ${value}${order}) where ${value} is not null`,
      },
      ...more,
    ],
    statistics: {
      name: `listing_field_${key}_stats`,
      create: `create statistics if not exists "listing_field_${key}_stats" (mcv, dependencies) on "category_id", ${value} from "listing"`,
    },
  });
  switch (match) {
    case 'value':
      // Newest first among equals: a page is the index's top. And for a choice (or a yes-no), each
      // choice's listings by grid square, holding their coordinates: a radius's squares are counted
      // and walked in the index alone ("TB free within 25 miles" read 24,000 listings of the radius
      // from the table to count them: 0.14 to 0.34 s).
      return btree(
        fieldValue(key),
        ', "published_at", "id"',
        options.map((option) => {
          const index = indexName(key, option, 'place');
          return {
            name: index,
            create: `create index if not exists "${index}" on "listing" ("status", "category_id", "geo_cell", "published_at", "id") include ("latitude", "longitude") where ${fieldValue(key)} = '${checkedOption(option)}'`,
          };
        }),
      );
    case 'range':
      return btree(fieldNumber(key), ', "id"');
    case 'any-of':
      // One small index a choice, of the listings holding it, newest first: a page is its top, and a
      // count reads the index alone (the list is only in its condition). A GIN index of the lists
      // was read whole (33,000 entries for NVZ) and then joined to the category's: 60 ms.
      return {
        key,
        match,
        options,
        indexes: options.map((option) => {
          const index = indexName(key, option);
          return {
            name: index,
            create: `create index if not exists "${index}" on "listing" ("status", "category_id", "published_at", "id") where ${fieldList(key)} @> '${oneChoice(option)}'::jsonb`,
          };
        }),
      };
  }
}

/** The values a field's listings hold, one index each: a choice's options, a yes-no's two; none for free text or dates. */
function optionsOf(field: CategoryField): string[] {
  if (field.kind === 'choice' || field.kind === 'choices') return Object.keys(field.options);
  return field.kind === 'yes-no' ? ['true', 'false'] : [];
}

/**
 * A field equal to a value, or (`anyOf`) a list of choices holding it, as search writes it. A value
 * with an index of its own (fieldIndexPlan's options) is written into the SQL, checked as the
 * index's condition is: a prepared statement's generic plan, made before any value is known, can
 * then prove that partial index usable (with the value bound it never can, and planned for each
 * request the statement cost 1 to 2 ms to plan). Any other value (a make) is bound.
 */
export function fieldEquals(key: string, value: string, table = '', anyOf = false): { sql: string; params: unknown[] } {
  const indexed = hasOwnIndex(key, value);
  if (anyOf) {
    return indexed
      ? { sql: `${fieldList(key, table)} @> '${oneChoice(value)}'::jsonb`, params: [] }
      : { sql: `${fieldList(key, table)} @> ?::jsonb`, params: [oneChoice(value)] };
  }
  return indexed
    ? { sql: `${fieldValue(key, table)} = '${checkedOption(value)}'`, params: [] }
    : { sql: `${fieldValue(key, table)} = ?`, params: [value] };
}

/** Whether a field's value has an index of its own (a choice's, a yes-no's), which search's SQL then names as a literal. */
export function hasOwnIndex(key: string, value: string): boolean {
  return indexedOptions().get(key)?.has(value) ?? false;
}

let indexed: Map<string, Set<string>> | undefined;
/** Each field's values with an index of their own, by key (the declared plan's, worked out once). */
function indexedOptions(): Map<string, Set<string>> {
  indexed ??= new Map(fieldIndexPlan().map((object) => [object.key, new Set(object.options)]));
  return indexed;
}

/**
 * Every filterable field's indexes (and statistics), once per key: a key declared in several
 * categories (organic) is one value wherever it is stored, so it must be matched one way.
 */
export function fieldIndexPlan(declared: Readonly<Record<CategorySlug, readonly CategoryField[]>> = CATEGORY_FIELDS): FieldSearchObject[] {
  const matches = new Map<string, { match: FieldMatchKind; options: Set<string> }>();
  for (const field of Object.values(declared).flat()) {
    const match = matchOf(field);
    if (!match) continue;
    const known = matches.get(field.key);
    if (known && known.match !== match)
      throw new Error(`Category field ${field.key} is searched as ${known.match} in one category and ${match} in another`);
    const entry = known ?? { match, options: new Set<string>() };
    optionsOf(field).forEach((option) => entry.options.add(option));
    matches.set(field.key, entry);
  }
  return [...matches].map(([key, { match, options }]) => objectsOf(key, match, [...options]));
}

/**
 * The SQL that creates these fields' indexes and statistics where missing (a migration's; naming a
 * field again after a choice is added to it creates that choice's index), then refreshes the statistics.
 */
export function fieldIndexSql(keys: readonly string[], plan: readonly FieldSearchObject[] = fieldIndexPlan()): string[] {
  const objects = keys.map((key) => {
    const found = plan.find((object) => object.key === key);
    if (!found) throw new Error(`No filterable category field ${key}`);
    return found;
  });
  return [
    ...objects.flatMap((object) => [
      ...object.indexes.map((index) => index.create),
      ...(object.statistics ? [object.statistics.create] : []),
    ]),
    'analyze "listing"',
  ];
}

/** The SQL that drops them (a migration's down). */
export function fieldIndexDropSql(keys: readonly string[], plan: readonly FieldSearchObject[] = fieldIndexPlan()): string[] {
  return plan
    .filter((object) => keys.includes(object.key))
    .flatMap((object) => [
      ...object.indexes.map((index) => `drop index if exists "${index.name}"`),
      ...(object.statistics ? [`drop statistics if exists "${object.statistics.name}"`] : []),
    ]);
}
