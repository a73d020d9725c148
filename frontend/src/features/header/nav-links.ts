import { browseCategoryHref, LISTING_CATEGORIES } from '../../lib/categories';

export interface NavLink {
  href: string;
  label: string;
}

/** The Browse dropdown: all listings, then one entry per category. */
export const BROWSE_LINKS: readonly NavLink[] = [
  { href: '/browse', label: 'All Categories' },
  ...LISTING_CATEGORIES.map((category) => ({ href: browseCategoryHref(category.slug), label: category.name })),
];

export const PRIMARY_LINKS: readonly NavLink[] = [
  { href: '/browse?type=buy', label: 'Buy' },
  { href: '/rent', label: 'Rent' },
  { href: '/post-listing?type=sell', label: 'Sell' },
  { href: '/services', label: 'Services' },
  { href: '/messages', label: 'Messages' },
  { href: '/feedback', label: 'Feedback' },
];

export const ACCOUNT_LINKS = {
  signUp: { href: '/signup', label: 'Sign Up' },
  signIn: { href: '/signin', label: 'Sign In' },
} as const satisfies Record<string, NavLink>;

export const POST_LISTING_LINK: NavLink = { href: '/post-listing', label: 'Post Listing' };
