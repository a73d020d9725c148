import { $browseProblem, $browseSearch, applyBrowseFilters } from '../../stores/browse';
import { apiQuery, normaliseFilters, resultCountText } from './browse-query';
import { escapeHtml, listingCardHtml, skeletonCardsHtml } from './listing-card';
import { searchListings, type ListingPage } from './listings-api';

export const CONNECTION_ISSUE_HTML =
  '<div class="card browse__issue" role="alert" data-connection-issue><h2>Connection Issue</h2><p>Failed to load listings. Please check your connection and try again.</p><button type="button" class="btn" data-try-again>Try Again</button></div>';

/** The results of a first page: count, "Showing results for", cards (or the empty text), Load More. */
export function resultsHtml(page: ListingPage, near: string | undefined): string {
  const cards = page.listings.map((listing) => listingCardHtml(listing, near ? { near } : {})).join('');
  return [
    `<p class="browse__count" data-browse-count>${escapeHtml(resultCountText(page.total, page.total_is_lower_bound))}</p>`,
    page.searched_for
      ? `<p class="browse__searched" data-searched-for>Showing results for <strong>${escapeHtml(page.searched_for)}</strong></p>`
      : '',
    page.listings.length === 0
      ? '<p class="browse__empty" data-browse-empty>No listings found. Try fewer filters, or <a href="/browse">browse all listings</a>.</p>'
      : `<div class="listing-grid" data-browse-grid>${cards}</div>`,
    `<div class="browse__more">${page.next_cursor ? '<button type="button" class="btn btn--outline" data-load-more>Load More Listings</button>' : ''}</div>`,
  ].join('');
}

/**
 * The results of the browse page over its server-rendered first page: every search the filter
 * panel (BrowseFilters.tsx), a tab or the browser's Back applies ($browseSearch) loads its first
 * page; tabs pick the category; Load More appends the next page by cursor; Try Again repeats a
 * failed call. No sample data.
 */
export function setupBrowseResults(root: HTMLElement): void {
  const results = root.querySelector<HTMLElement>('[data-browse-results]');
  if (!results) return;

  let filters = normaliseFilters(new URLSearchParams(location.search));
  filters.delete('cursor');
  let nextCursor: string | null = null;
  const shown = new Set<string>();
  let request = 0;

  const rememberShown = () => {
    shown.clear();
    results.querySelectorAll<HTMLElement>('[data-listing-id]').forEach((card) => shown.add(card.dataset['listingId'] ?? ''));
  };
  // The server rendered the first page: take over its Next page link as Load More.
  const serverNext = results.querySelector<HTMLAnchorElement>('[data-next-page]');
  if (serverNext && !new URLSearchParams(location.search).get('cursor')) {
    nextCursor = new URL(serverNext.href).searchParams.get('cursor');
    serverNext.outerHTML = '<button type="button" class="btn btn--outline" data-load-more>Load More Listings</button>';
  }
  rememberShown();

  const updateTabs = () => {
    const category = filters.get('category') ?? '';
    root.querySelectorAll<HTMLAnchorElement>('[data-browse-tab]').forEach((tab) => {
      if (tab.dataset['browseTab'] === category) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    });
  };

  const load = async () => {
    const mine = ++request;
    results.setAttribute('aria-busy', 'true');
    results.innerHTML = `<div class="listing-grid">${skeletonCardsHtml(6)}</div>`;
    const outcome = await searchListings(apiQuery(filters));
    if (mine !== request) return;
    results.removeAttribute('aria-busy');
    if (!outcome.ok) {
      nextCursor = null;
      if (outcome.status === 0 || outcome.status >= 500) {
        console.warn('Failed to load listings', outcome.error);
        results.innerHTML = CONNECTION_ISSUE_HTML;
      } else results.innerHTML = `<p class="alert alert--danger" role="alert">${escapeHtml(outcome.error)}</p>`;
      return;
    }
    nextCursor = outcome.data.next_cursor;
    results.innerHTML = resultsHtml(outcome.data, filters.get('location') ?? undefined);
    rememberShown();
  };

  const loadMore = async (button: HTMLButtonElement) => {
    if (!nextCursor) return;
    button.disabled = true;
    button.textContent = 'Loading...';
    const outcome = await searchListings(apiQuery(filters, { cursor: nextCursor }));
    if (!outcome.ok) {
      button.disabled = false;
      button.textContent = 'Load More Listings';
      results.querySelector('[data-more-error]')?.remove();
      button.insertAdjacentHTML(
        'afterend',
        '<p class="field__error" role="alert" data-more-error>Failed to load more listings. Please try again.</p>',
      );
      return;
    }
    results.querySelector('[data-more-error]')?.remove();
    const near = filters.get('location') ?? undefined;
    const fresh = outcome.data.listings.filter((listing) => !shown.has(listing.id));
    for (const listing of fresh) shown.add(listing.id);
    results
      .querySelector('[data-browse-grid]')
      ?.insertAdjacentHTML('beforeend', fresh.map((l) => listingCardHtml(l, near ? { near } : {})).join(''));
    nextCursor = outcome.data.next_cursor;
    if (nextCursor) {
      button.disabled = false;
      button.textContent = 'Load More Listings';
    } else button.remove();
  };

  $browseSearch.listen((search) => {
    if (!search) return;
    filters = search.filters;
    updateTabs();
    void load();
  });
  $browseProblem.listen((problem) => {
    if (!problem) return;
    request += 1; // a search still on its way is not shown over the problem
    results.removeAttribute('aria-busy');
    results.innerHTML = `<p class="alert alert--danger" role="alert">${escapeHtml(problem)}</p>`;
  });

  root.querySelectorAll<HTMLAnchorElement>('[data-browse-tab]').forEach((tab) =>
    tab.addEventListener('click', (event) => {
      event.preventDefault();
      // Another category: its own fields' ranges and the rentals' subcategory go.
      const next = new URLSearchParams(filters);
      for (const name of [...next.keys()]) if (/_(min|max)$/.test(name) || name === 'subcategory') next.delete(name);
      const category = tab.dataset['browseTab'] ?? '';
      if (category) next.set('category', category);
      else next.delete('category');
      applyBrowseFilters(next);
    }),
  );
  results.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    const more = target.closest<HTMLButtonElement>('[data-load-more]');
    if (more) void loadMore(more);
    const retry = target.closest<HTMLElement>('[data-try-again]');
    if (retry) {
      event.preventDefault();
      void load();
    }
  });
  window.addEventListener('popstate', () => applyBrowseFilters(new URLSearchParams(location.search), true));
}
