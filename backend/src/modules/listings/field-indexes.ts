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
 *   few matches and read every livestock listing to count them, 0.34 s);
 * - a range (acres, hours): a btree of a category's listings by the number;
 * - several choices ("has any of": designations): a GIN index of the list.
 * Every index is partial (only listings with the field), so a field costs what its listings do.
 * The migrations create them (fieldIndexSql); a test checks the migrated database holds every one.
 */

/** How search matches a field, which decides its index. */
export type FieldMatchKind = 'value' | 'range' | 'any-of';

export interface FieldSearchObject {
  key: string;
  match: FieldMatchKind;
  /** The index's name; search SQL writes the same expressions (fieldValue, fieldNumber, fieldList). */
  index: string;
  createIndex: string;
  /** The statistics object's name, where PostgreSQL can use one (not for "has any of"). */
  statistics?: string;
  createStatistics?: string;
}

/** A key written into SQL: the declared keys are lower-case words (checked, never taken from a request). */
function checkedKey(key: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(key)) throw new Error(`A category field key must be lower-case letters, digits and _: ${key}`);
  return key;
}

/** A field's value as text, e.g. `("l"."attributes" ->> 'tb_status')`: what an equality or a date compares. */
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

function matchOf(field: CategoryField): FieldMatchKind | undefined {
  if ((field.kind === 'integer' || field.kind === 'decimal') && field.range) return 'range';
  if (!isFilterable(field)) return undefined;
  return field.kind === 'choices' ? 'any-of' : 'value';
}

function objectsOf(key: string, match: FieldMatchKind): FieldSearchObject {
  const index = `listing_field_${key}_index`;
  const statistics = `listing_field_${key}_stats`;
  // A btree of a category's listings with the field, by its value, then `order`; statistics of the value beside the category.
  const btree = (value: string, order: string): FieldSearchObject => ({
    key,
    match,
    index,
    createIndex: `create index "${index}" on "listing" ("status", "category_id", ${value}${order}) where ${value} is not null`,
    statistics,
    createStatistics: `create statistics "${statistics}" (mcv, dependencies) on "category_id", ${value} from "listing"`,
  });
  switch (match) {
    case 'value':
      // Newest first among equals: a page is the index's top.
      return btree(fieldValue(key), ', "published_at", "id"');
    case 'range':
      return btree(fieldNumber(key), ', "id"');
    case 'any-of':
      return {
        key,
        match,
        index,
        createIndex: `create index "${index}" on "listing" using gin (${fieldList(key)} jsonb_path_ops) where ${fieldList(key)} is not null`,
      };
  }
}

/**
 * Every filterable field's index (and statistics), once per key: a key declared in several
 * categories (organic) is one value wherever it is stored, so it must be matched one way.
 */
export function fieldIndexPlan(declared: Readonly<Record<CategorySlug, readonly CategoryField[]>> = CATEGORY_FIELDS): FieldSearchObject[] {
  const matches = new Map<string, FieldMatchKind>();
  for (const field of Object.values(declared).flat()) {
    const match = matchOf(field);
    if (!match) continue;
    const known = matches.get(field.key);
    if (known && known !== match)
      throw new Error(`Category field ${field.key} is searched as ${known} in one category and ${match} in another`);
    matches.set(field.key, match);
  }
  return [...matches].map(([key, match]) => objectsOf(key, match));
}

/** The SQL that creates these fields' indexes and statistics (a migration's), then refreshes the statistics. */
export function fieldIndexSql(keys: readonly string[], plan: readonly FieldSearchObject[] = fieldIndexPlan()): string[] {
  const objects = keys.map((key) => {
    const found = plan.find((object) => object.key === key);
    if (!found) throw new Error(`No filterable category field ${key}`);
    return found;
  });
  return [
    ...objects.flatMap((object) => [object.createIndex, ...(object.createStatistics ? [object.createStatistics] : [])]),
    'analyze "listing"',
  ];
}

/** The SQL that drops them (a migration's down). */
export function fieldIndexDropSql(keys: readonly string[], plan: readonly FieldSearchObject[] = fieldIndexPlan()): string[] {
  return plan
    .filter((object) => keys.includes(object.key))
    .flatMap((object) => [`drop index "${object.index}"`, ...(object.statistics ? [`drop statistics "${object.statistics}"`] : [])]);
}
