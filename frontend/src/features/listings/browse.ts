import {
  activeFilterCount,
  apiQuery,
  browseHref,
  normaliseFilters,
  rangeFieldsHtml,
  resultCountText,
  SORT_LABELS,
  sortChoices,
} from './browse-query';
import { escapeHtml, listingCardHtml, skeletonCardsHtml } from './listing-card';
import { searchListings, type ListingPage } from './listings-api';
import { setupPlacePicker } from './place-picker';

const MOBILE = '(max-width: 1023px)';

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
 * The browse island over the server-rendered page: every filter change updates the URL (so a
 * search can be shared, and survives a reload) and fetches the first page; tabs pick the category;
 * Load More appends the next page by cursor; Try Again repeats a failed call. No sample data.
 */
export function setupBrowse(root: HTMLElement): void {
  const form = root.querySelector<HTMLFormElement>('[data-browse-form]');
  const results = root.querySelector<HTMLElement>('[data-browse-results]');
  const panel = root.querySelector<HTMLElement>('[data-filter-panel]');
  const toggle = root.querySelector<HTMLButtonElement>('[data-filter-toggle]');
  if (!form || !results || !panel || !toggle) return;
  root.dataset['enhanced'] = 'true';
  const pickerRoot = form.querySelector<HTMLElement>('[data-place-picker]');
  const picker = pickerRoot ? setupPlacePicker(pickerRoot, () => void apply()) : undefined;

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

  const updateBadges = () => {
    const count = activeFilterCount(filters);
    root.querySelectorAll<HTMLElement>('[data-filter-count]').forEach((badge) => {
      badge.textContent = String(count);
      badge.hidden = count === 0;
    });
  };
  const updateTabs = () => {
    const category = filters.get('category') ?? '';
    root.querySelectorAll<HTMLAnchorElement>('[data-browse-tab]').forEach((tab) => {
      if (tab.dataset['browseTab'] === category) tab.setAttribute('aria-current', 'page');
      else tab.removeAttribute('aria-current');
    });
  };
  /** The parts of the form that depend on other choices: rent subcategory, range fields, sorts. */
  const updateDependentFields = () => {
    const subcategory = form.querySelector<HTMLElement>('[data-subcategory-field]');
    if (subcategory) subcategory.hidden = filters.get('category') !== 'rentals';
    const ranges = form.querySelector<HTMLElement>('[data-range-fields]');
    const rangesHtml = rangeFieldsHtml(filters);
    if (ranges && ranges.innerHTML !== rangesHtml) ranges.innerHTML = rangesHtml;
    const sort = form.querySelector<HTMLSelectElement>('[data-sort]');
    if (sort) {
      const current = filters.get('sort') ?? (filters.get('q') ? 'relevance' : 'newest');
      sort.innerHTML = sortChoices(filters)
        .map((value) => `<option value="${value}"${value === current ? ' selected' : ''}>${SORT_LABELS[value]}</option>`)
        .join('');
    }
  };
  const fillForm = () => {
    for (const element of [...form.elements] as Array<HTMLInputElement | HTMLSelectElement>) {
      if (!element.name) continue;
      if (element instanceof HTMLInputElement && element.type === 'checkbox') element.checked = filters.get(element.name) === 'true';
      else if (element.name === 'date') element.value = filters.get('date') ?? 'all';
      else if (element.name === 'radius') element.value = filters.get('radius') ?? '25';
      else element.value = filters.get(element.name) ?? '';
    }
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

  const apply = async () => {
    if (picker && !(await picker.resolve())) {
      results.innerHTML =
        '<p class="alert alert--danger" role="alert">We could not find that place. Choose a UK town or village from the list.</p>';
      return;
    }
    filters = normaliseFilters(new URLSearchParams(new FormData(form) as unknown as string[][]));
    const href = browseHref(filters);
    if (href !== `${location.pathname}${location.search}`) history.pushState(null, '', href);
    updateBadges();
    updateTabs();
    updateDependentFields();
    await load();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void apply();
    if (matchMedia(MOBILE).matches) setOpen(false);
  });
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLElement;
    // The place box applies when a place is chosen; words apply on Enter or Apply.
    if (target.matches('[data-place-input], [name="q"]')) return;
    void apply();
  });
  root.querySelectorAll<HTMLAnchorElement>('[data-browse-tab]').forEach((tab) =>
    tab.addEventListener('click', (event) => {
      event.preventDefault();
      const category = form.querySelector<HTMLSelectElement>('[name="category"]');
      if (category) category.value = tab.dataset['browseTab'] ?? '';
      form.querySelectorAll<HTMLInputElement>('[data-range-fields] input').forEach((input) => (input.value = ''));
      void apply();
    }),
  );
  form.querySelector<HTMLAnchorElement>('[data-filter-clear]')?.addEventListener('click', (event) => {
    event.preventDefault();
    filters = new URLSearchParams();
    fillForm();
    void apply();
  });
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
  window.addEventListener('popstate', () => {
    filters = normaliseFilters(new URLSearchParams(location.search));
    filters.delete('cursor');
    updateDependentFields();
    fillForm();
    updateBadges();
    updateTabs();
    void load();
  });

  // The filter panel: a card beside the results on wide screens, a side panel on narrow ones.
  const setOpen = (open: boolean) => {
    panel.toggleAttribute('data-open', open);
    toggle.setAttribute('aria-expanded', String(open));
    if (open) panel.querySelector<HTMLElement>('input, select')?.focus();
    else toggle.focus();
  };
  toggle.addEventListener('click', () => setOpen(!panel.hasAttribute('data-open')));
  root.querySelector('[data-filter-close]')?.addEventListener('click', () => setOpen(false));
  // A tap beside the open side panel (on the dimmed page) closes it.
  document.addEventListener('click', (event) => {
    if (!panel.hasAttribute('data-open')) return;
    const target = event.target as Node;
    if (!panel.contains(target) && !toggle.contains(target)) setOpen(false);
  });
  panel.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && panel.hasAttribute('data-open')) setOpen(false);
  });
}
