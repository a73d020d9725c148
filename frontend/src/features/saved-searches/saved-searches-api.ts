import type { AlertFrequency } from '@contracts/saved-searches';
import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { REQUEST_TIMEOUT_MS, settle, SITE_HEADERS, type Outcome } from '../listings/listings-api';

export type SavedSearch = components['schemas']['SavedSearchView'];
export interface SavedSearchChange {
  name?: string;
  frequency?: AlertFrequency;
  price_drops?: boolean;
  paused?: boolean;
}

const options = () => ({ headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });

/** The browse page's parameter that asks, after signing in, for the search to be saved. */
export const SAVE_AFTER_SIGN_IN = 'save_search';

export function savedSearches(): Promise<Outcome<SavedSearch[]>> {
  return settle<SavedSearch[]>(() => api.GET('/api/saved-searches', options()));
}

export function saveSearch(query: string): Promise<Outcome<SavedSearch>> {
  return settle<SavedSearch>(() => api.POST('/api/saved-searches', { body: { query }, ...options() }));
}

export function changeSavedSearch(id: string, change: SavedSearchChange): Promise<Outcome<SavedSearch>> {
  return settle<SavedSearch>(() => api.PATCH('/api/saved-searches/{id}', { params: { path: { id } }, body: change, ...options() }));
}

/**
 * Its matches so far are no longer new: told as the search opens, without holding the page up
 * (keepalive, so the call outlives the page it was made from).
 */
export function markSavedSearchSeen(id: string): void {
  void settle<SavedSearch>(() =>
    api.POST('/api/saved-searches/{id}/seen', { params: { path: { id } }, headers: SITE_HEADERS, keepalive: true }),
  );
}

export function deleteSavedSearch(id: string): Promise<Outcome<{ message: string }>> {
  return settle<{ message: string }>(() => api.DELETE('/api/saved-searches/{id}', { params: { path: { id } }, ...options() }));
}

export function unsubscribeSavedSearches(token: string): Promise<Outcome<{ message: string }>> {
  return settle<{ message: string }>(() => api.POST('/api/saved-searches/unsubscribe', { params: { query: { token } }, ...options() }));
}

/** The search a browse URL states, without what only the page needs (the page's cursor, the place's typed name, the save request). */
export function searchOfBrowseUrl(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of ['cursor', 'place', SAVE_AFTER_SIGN_IN]) params.delete(name);
  return params.toString();
}
