import type { paths } from './api-types';

/** The API's GET routes that declare a query. */
type QueryRoute = {
  [P in keyof paths]: paths[P] extends { get: { parameters: { query?: object } } } ? P : never;
}[keyof paths];

/** The query a GET route declares in the contract. */
export type RouteQuery<P extends QueryRoute> = NonNullable<paths[P]['get']['parameters']['query']>;

/** A query value as the page has it: text from a URL or a form, or the declared type itself. */
type QueryValue = string | number | boolean | null | undefined;

/**
 * The query of GET `route` from values as a page holds them: a URL's search parameters, or an object
 * of text, numbers and flags. Absent (undefined or null) values are left out. Values stay as given: in the
 * URL everything is text anyway, and the API parses and validates each one (a bad one is a 400 naming
 * it). Keys the contract does not list pass through too, because some filters are open-ended (the
 * per-category ranges of GET /api/listings, `year_min`, `acres_max`...). This is the one place where
 * text meets the typed client, so the calls themselves need no casts.
 */
export function routeQuery<P extends QueryRoute>(
  _route: P,
  values: URLSearchParams | Partial<Record<keyof RouteQuery<P>, QueryValue>> | Record<string, QueryValue>,
): RouteQuery<P> {
  const entries: Array<[string, QueryValue]> = values instanceof URLSearchParams ? [...values] : Object.entries(values);
  const query: Record<string, string | number | boolean> = {};
  for (const [key, value] of entries) if (value !== undefined && value !== null) query[key] = value;
  return query as RouteQuery<P>;
}
