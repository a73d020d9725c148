// SPEC §2: after sign-in the default destination is /browse. Until that page exists it would be a
// not-found page, so the home page stands in; the choice is made when the site is built.
const browsePages = import.meta.glob(['../pages/browse.astro', '../pages/browse/index.astro']);

export const AFTER_SIGN_IN_DEFAULT = Object.keys(browsePages).length > 0 ? '/browse' : '/';

// A listing's own page (SPEC §2 /listing/{id}); cards link to it once it exists, never to a not-found page.
const listingPages = import.meta.glob(['../pages/listing/[id].astro']);

export function listingHref(id: string): string | null {
  return Object.keys(listingPages).length > 0 ? `/listing/${id}` : null;
}
