import { api, type ApiClient } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { routeQuery } from '../../lib/route-query';
import { settle as settleCall, type ApiResult } from '../../lib/api-result';

export type ListingPage = components['schemas']['ListingPage'];
export type ListingDetail = components['schemas']['ListingDetail'];
/** POST /api/listings' answer: the listing, and how many buyers' wanted ads it answers. */
export type PostedListing = components['schemas']['PostedListing'];
export type ListingModeration = components['schemas']['ListingModerationView'];
export type FeaturedListings = components['schemas']['FeaturedListings'];
export type Place = components['schemas']['PlaceResponse'];

/** The header the site's own calls carry; the API refuses signed-in changes without it. */
export const SITE_HEADERS = { 'X-Requested-With': 'fieldmarket' } as const;

/** SPEC §9: request timeout 15 s; browse 10 s. */
export const REQUEST_TIMEOUT_MS = 15_000;
export const BROWSE_TIMEOUT_MS = 10_000;

/** A failure's `retryAfter` is the API's Retry-After (a 429's wait in seconds), when it sent one. */
/** A listings call's answer (lib/api-result.ts): the data, or the status, message, fields and Retry-After. */
export type Outcome<T> = ApiResult<T>;

/**
 * Reads the envelope of an openapi-fetch result; a thrown fetch (offline, timeout) is status 0 with the
 * network message, and a failure without a message of its own says its status (SPEC's 'HTTP error! status: N').
 */
export function settle<T>(call: () => Promise<{ data?: unknown; error?: unknown; response: Response }>): Promise<Outcome<T>> {
  return settleCall<T>(call, (status) => `HTTP error! status: ${status}`);
}

/**
 * GET /api/listings with the URL's filters as they are: the per-category ranges (`year_min`,
 * `acres_max`...) are open-ended, so the query is passed through rather than typed key by key.
 */
export function searchListings(query: URLSearchParams, timeoutMs = BROWSE_TIMEOUT_MS): Promise<Outcome<ListingPage>> {
  return settle<ListingPage>(() =>
    api.GET('/api/listings', {
      params: { query: routeQuery('/api/listings', query) },
      signal: AbortSignal.timeout(timeoutMs),
    }),
  );
}

export function featuredListings(limit: number): Promise<Outcome<FeaturedListings>> {
  return settle<FeaturedListings>(() =>
    api.GET('/api/listings/featured', { params: { query: { limit } }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  );
}

/** `client`: a server-rendered page passes its own (lib/server-api.ts). */
/** The makes of live machinery listings, most listed first: the make filter's suggestions. */
export function makesInUse(): Promise<Outcome<{ makes: string[] }>> {
  return settle(() => api.GET('/api/listings/makes', { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }));
}

export function searchPlaces(q: string, signal?: AbortSignal, client: ApiClient = api): Promise<Outcome<Place[]>> {
  return settle<Place[]>(() => client.GET('/api/places', { params: { query: { q } }, ...(signal ? { signal } : {}) }));
}

export function setSaved(listingId: string, saved: boolean): Promise<Outcome<{ saved: boolean; saves_count: number }>> {
  const init = { body: { listingId }, headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
  return settle(() => (saved ? api.POST('/api/listings/saved', init) : api.DELETE('/api/listings/saved', init)));
}

export type OwnerStatus = 'live' | 'sold' | 'let' | 'withdrawn';

export function changeStatus(id: string, status: OwnerStatus): Promise<Outcome<ListingDetail>> {
  return settle<ListingDetail>(() =>
    api.PATCH('/api/listings/{id}/status', {
      params: { path: { id } },
      body: { status },
      headers: SITE_HEADERS,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }),
  );
}

export function deleteListing(id: string): Promise<Outcome<{ message: string }>> {
  return settle(() =>
    api.DELETE('/api/listings/{id}', { params: { path: { id } }, headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  );
}

/** The owner's one appeal against staff hiding their listing. */
export function appealListing(id: string, text: string): Promise<Outcome<ListingModeration>> {
  return settle(() =>
    api.POST('/api/listings/{id}/appeal', {
      params: { path: { id } },
      body: { text },
      headers: SITE_HEADERS,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }),
  );
}

/** The hint cookie the session sets beside its httpOnly cookies: says "signed in", proves nothing. */
export function hasSignedInHint(cookie: string = typeof document === 'undefined' ? '' : document.cookie): boolean {
  return cookie.split(';').some((pair) => {
    const [name, value] = pair.trim().split('=');
    return name === 'fm_signed_in' && value !== undefined && value !== '' && value !== '0';
  });
}

/** Where a visitor goes to sign in and come back. */
export function signInHref(redirect: string): string {
  return `/signin?redirect=${encodeURIComponent(redirect)}`;
}
