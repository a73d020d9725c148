import { atom } from 'nanostores';
import { browseHref, normaliseFilters } from '../features/listings/browse-query';

/** A search the browse page is to show: its normalised filters (no cursor). A new object each time, so the same search runs again. */
export interface BrowseSearch {
  filters: URLSearchParams;
}

/**
 * The browse page's applied filters, shared by the filter panel island (BrowseFilters.tsx) and the
 * results over the server-rendered page (browse.ts): the panel applies, the results load; a tab or
 * the browser's Back applies too, and the panel shows what was applied.
 */
export const $browseSearch = atom<BrowseSearch | null>(null);

/** A problem with the filters themselves (an unknown place), shown where the results were. */
export const $browseProblem = atom<string>('');

/** Applies filters: the URL says them (a new history entry unless `fromHistory`), and the results follow. */
export function applyBrowseFilters(input: URLSearchParams, fromHistory = false): void {
  const filters = normaliseFilters(input);
  filters.delete('cursor');
  if (!fromHistory) {
    const href = browseHref(filters);
    if (href !== `${location.pathname}${location.search}`) history.pushState(null, '', href);
  }
  $browseProblem.set('');
  $browseSearch.set({ filters });
}
