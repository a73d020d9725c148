/**
 * A list as a PostgreSQL array literal ('{"a","b"}'), to bind as one value: the ORM's raw queries
 * spread a bound list into "?, ?, ?", which `= any(?)` and `&& ?` cannot take.
 */
export function pgArray(values: ReadonlyArray<string | number>): string {
  return `{${values.map((value) => `"${String(value).replace(/[\\"]/g, (c) => `\\${c}`)}"`).join(',')}}`;
}
