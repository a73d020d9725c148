import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { REQUEST_TIMEOUT_MS, settle, SITE_HEADERS, type Outcome } from './listings-api';

export type SavedEntry = components['schemas']['SavedListingEntry'];
export type OwnListingPage = components['schemas']['OwnListingPage'];
/** One of the owner's listings: a card, with its case when staff hid it. */
export type OwnListingCard = components['schemas']['OwnListingCard'];

export function savedListings(): Promise<Outcome<SavedEntry[]>> {
  return settle<SavedEntry[]>(() =>
    api.GET('/api/listings/saved', { headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
  );
}

export function myListings(cursor?: string): Promise<Outcome<OwnListingPage>> {
  return settle<OwnListingPage>(() =>
    api.GET('/api/listings/mine', {
      params: { query: cursor ? { cursor } : {} },
      headers: SITE_HEADERS,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    }),
  );
}

/** Owner actions a listing in this state offers (My Listings and the listing page agree). */
export function ownerActions(listing: { status: string; type: string }): Array<'sold' | 'let' | 'withdrawn' | 'live'> {
  if (listing.status === 'live') return [listing.type === 'rent' ? 'let' : 'sold', 'withdrawn'];
  if (listing.status === 'removed') return [];
  return ['live'];
}

export const ACTION_LABELS = { sold: 'Mark as sold', let: 'Mark as let', withdrawn: 'Withdraw', live: 'Renew' } as const;
