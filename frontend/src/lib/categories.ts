/** The five listing categories of the marketplace, in the order the header and home page show them. */
export const LISTING_CATEGORIES = [
  { slug: 'land', name: 'Land' },
  { slug: 'equipment', name: 'Equipment' },
  { slug: 'livestock', name: 'Livestock' },
  { slug: 'seeds-plants', name: 'Seeds & Plants' },
  { slug: 'services', name: 'Services' },
] as const;

export type ListingCategory = (typeof LISTING_CATEGORIES)[number];
export type ListingCategorySlug = ListingCategory['slug'];

export function categoryName(slug: string): string | undefined {
  return LISTING_CATEGORIES.find((category) => category.slug === slug)?.name;
}

export function browseCategoryHref(slug: ListingCategorySlug): string {
  return `/browse?category=${slug}`;
}
