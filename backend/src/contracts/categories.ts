/**
 * The marketplace's six categories, with the ids the initial migration gave them (a test keeps the
 * database rows and this list in step). The order is the one every menu shows.
 */
export const CATEGORIES = [
  { id: 1, slug: 'land', name: 'Land' },
  { id: 2, slug: 'equipment', name: 'Equipment' },
  { id: 3, slug: 'livestock', name: 'Livestock' },
  { id: 4, slug: 'seeds-plants', name: 'Seeds & Plants' },
  { id: 5, slug: 'services', name: 'Services' },
  { id: 6, slug: 'rentals', name: 'Rentals' },
] as const;

export type Category = (typeof CATEGORIES)[number];
export type CategorySlug = Category['slug'];

export function categoryBySlug(slug: string): Category | undefined {
  return CATEGORIES.find((category) => category.slug === slug);
}
