import type { ApiClient } from '../../lib/api';
import { countOf } from '../../lib/format';
import type { components } from '../../lib/api-types';
import { REQUEST_TIMEOUT_MS, settle } from './listings-api';

export type CategoryCount = components['schemas']['CategoryResponse'];

/** GET /api/categories through a page's client: each category with its live listing count; undefined when the API fails. */
export async function categoryCounts(api: ApiClient): Promise<CategoryCount[] | undefined> {
  const outcome = await settle<CategoryCount[]>(() => api.GET('/api/categories', { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
  return outcome.ok ? outcome.data : undefined;
}

/** "128 listings", "1 listing", "No listings yet". */
export function countLabel(count: number | undefined): string {
  if (count === undefined) return '';
  if (count === 0) return 'No listings yet';
  return countOf(count, 'listing');
}
