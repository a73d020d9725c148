import { CATEGORIES, type Category, type CategorySlug } from '@contracts/categories';

// The six categories are kept once, beside the API that serves them.
export { CATEGORIES, type Category, type CategorySlug };

/**
 * The five categories the header's Browse menu and the home page's chips offer, in that order.
 * Rentals are a way of trading rather than a kind of thing, with a page of their own (/rent).
 */
export const LISTING_CATEGORIES = CATEGORIES.filter(
  (category): category is Exclude<Category, { slug: 'rentals' }> => category.slug !== 'rentals',
);

export type ListingCategorySlug = (typeof LISTING_CATEGORIES)[number]['slug'];

export function categoryName(slug: string): string | undefined {
  return CATEGORIES.find((category) => category.slug === slug)?.name;
}

export function browseCategoryHref(slug: ListingCategorySlug): string {
  return `/browse?category=${slug}`;
}

/** The category's own page: /land, /equipment, ...; rentals live at /rent (spec §2 route table). */
export function categoryPageHref(slug: CategorySlug): string {
  return slug === 'rentals' ? '/rent' : `/${slug}`;
}
