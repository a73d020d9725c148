import { categoryName, LISTING_CATEGORIES } from '../../lib/categories';

/** A category slug, or '' for the All chip. */
export type FeaturedFilter = string;

export const FEATURED_CHIPS: ReadonlyArray<{ value: FeaturedFilter; label: string }> = [
  { value: '', label: 'All' },
  ...LISTING_CATEGORIES.map((category) => ({ value: category.slug, label: category.name })),
];

export function emptyMessage(filter: FeaturedFilter): string {
  if (filter === '') return 'No featured listings yet. Be the first to post your land, equipment, or service!';
  return `No ${categoryName(filter) ?? filter} listings found.`;
}

/**
 * The chips over the featured grid: pressing one marks it pressed and shows that category's empty
 * text. Until the listings API exists there is nothing to fetch, so this is all the grid does.
 */
export function setupFeaturedFilter(root: HTMLElement): void {
  const message = root.querySelector<HTMLElement>('[data-testid="featured-empty"]');
  const chips = [...root.querySelectorAll<HTMLButtonElement>('[data-featured-filter]')];
  for (const chip of chips) {
    chip.addEventListener('click', () => {
      for (const other of chips) other.setAttribute('aria-pressed', String(other === chip));
      if (message) message.textContent = emptyMessage(chip.dataset['featuredFilter'] ?? '');
    });
  }
}
