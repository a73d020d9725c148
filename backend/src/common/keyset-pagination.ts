import type { EntityManager, FilterQuery, QueryOrderMap } from '@mikro-orm/postgresql';
import { BadRequestException } from '@nestjs/common';
import { isUuid } from './uuid.js';

/**
 * Keyset ("cursor") pagination: a page is the rows strictly after the last row of the previous
 * page in a fixed order, so rows added or removed meanwhile never cause a duplicate or a gap,
 * and page 1000 costs what page 1 costs (an index range scan, no OFFSET).
 *
 * The order must end with a unique key (the id) so it is total, and its values must survive a
 * round trip through JSON exactly: integers, strings, or timestamps with millisecond precision
 * (what a JavaScript Date holds; database defaults like now() have microseconds).
 */
export interface SortKey<T> {
  field: keyof T & string;
  direction: 'asc' | 'desc';
  type: CursorType;
}

export interface KeysetPage<T> {
  items: T[];
  /** Opaque; pass it back to get the next page. Null on the last page. */
  nextCursor: string | null;
}

export const INVALID_CURSOR_MESSAGE = 'This page link is no longer valid. Start again from the first page.';

type CursorValue = string | number | boolean;

export function encodeCursor(values: readonly unknown[]): string {
  return Buffer.from(JSON.stringify(values.map((value) => (value instanceof Date ? value.toISOString() : value)))).toString('base64url');
}

/** The values of a cursor made by encodeCursor for a sort of `arity` keys; a 400 for anything else. */
export function decodeCursor(cursor: string, arity: number): CursorValue[] {
  let values: unknown;
  try {
    if (cursor.length > 1_000 || !/^[\w-]+$/.test(cursor)) throw new Error('malformed');
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new BadRequestException(INVALID_CURSOR_MESSAGE);
  }
  const valid =
    Array.isArray(values) &&
    values.length === arity &&
    values.every((v) => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)));
  if (!valid) throw new BadRequestException(INVALID_CURSOR_MESSAGE);
  return values as CursorValue[];
}

/** The SQL type of a sorted value, as a cursor carries it. */
export type CursorType = 'uuid' | 'timestamptz' | 'bigint' | 'integer' | 'float8' | 'numeric';

/** What each cast of a sort's value accepts from a cursor (else PostgreSQL would refuse it, or read "yesterday" as a time). */
const CURSOR_VALUE: Record<CursorType, (value: unknown) => boolean> = {
  uuid: (v) => isUuid(v),
  timestamptz: (v) => typeof v === 'string' && isTimestamp(v),
  bigint: (v) => Number.isSafeInteger(v),
  integer: (v) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31,
  float8: (v) => typeof v === 'number' && Number.isFinite(v),
  numeric: (v) => typeof v === 'string' && /^-?\d{1,20}(\.\d{1,20})?$/.test(v),
};

/** A time as PostgreSQL prints one, with a day that exists (no 30 February) and a time of day within it. */
function isTimestamp(text: string): boolean {
  const parts = /^(\d{4})-(\d\d)-(\d\d)[ T]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?(Z|[+-](0\d|1[0-5])(:?[0-5]\d)?)$/.exec(text);
  if (!parts) return false;
  const [year, month, day] = parts.slice(1, 4).map(Number) as [number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return year >= 1970 && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The values of a cursor for a sort on values of these types, in order; a 400 for a cursor of another sort, or forged. */
export function decodeTypedCursor(cursor: string, types: readonly CursorType[]): CursorValue[] {
  const values = decodeCursor(cursor, types.length);
  if (!types.every((type, i) => CURSOR_VALUE[type](values[i]))) throw new BadRequestException(INVALID_CURSOR_MESSAGE);
  return values;
}

/** Rows strictly after `after` in the order `sort`: (a > x) or (a = x and b > y) or ... */
export function keysetFilter<T>(sort: ReadonlyArray<SortKey<T>>, after: readonly CursorValue[]): FilterQuery<T> {
  const branches = sort.map((key, index) => {
    const branch: Record<string, unknown> = {};
    for (let i = 0; i < index; i++) branch[(sort[i] as SortKey<T>).field] = after[i];
    branch[key.field] = { [key.direction === 'asc' ? '$gt' : '$lt']: after[index] };
    return branch;
  });
  return { $or: branches } as FilterQuery<T>;
}

/** One page of `entity` matching `where`, in `sort` order, after `cursor` (first page without). */
export async function findKeysetPage<T extends object>(
  em: EntityManager,
  entity: new (...args: never[]) => T,
  where: FilterQuery<T>,
  options: { sort: ReadonlyArray<SortKey<T>>; limit: number; cursor?: string | undefined },
): Promise<KeysetPage<T>> {
  const { sort, limit, cursor } = options;
  const types = sort.map((key) => key.type);
  const after = cursor ? decodeTypedCursor(cursor, types) : undefined;
  const filter = after ? ({ $and: [where, keysetFilter(sort, after)] } as FilterQuery<T>) : where;
  const orderBy: QueryOrderMap<T> = {};
  for (const key of sort) Object.assign(orderBy, { [key.field]: key.direction });
  const rows = (await em.find(entity, filter, { orderBy, limit: limit + 1 })) as T[];
  const items = rows.slice(0, limit);
  const last = items.at(-1);
  const nextCursor = rows.length > limit && last ? encodeCursor(sort.map((key) => last[key.field])) : null;
  return { items, nextCursor };
}
