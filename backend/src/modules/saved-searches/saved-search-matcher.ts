import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { INSTANT_MAIL_EVERY_MINUTES } from '../../contracts/saved-searches.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { ListingMatches, type PercolatedListing } from '../listings/listing-search/listing-matches.js';
import { searchQueryFromJson, type StoredSearchQuery } from '../listings/listing-search/search-query.js';
import { NOT_MAILED } from './saved-search.entity.js';
import { listingKeys } from './search-percolator.js';

interface Candidate {
  id: string;
  user_id: string;
  query: StoredSearchQuery;
  frequency: string;
  price_drops: boolean;
}

type Run = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/**
 * Matches each newly published listing, and each listing whose price changed, against every saved
 * search: reverse search. The searches sharing a prune key with the listing, within their stored
 * bounds, are its candidates (one GIN lookup); each candidate is then confirmed by running its own
 * search SQL restricted to the listing (ListingMatches), so an alert never names a listing the
 * search's page would not show. Each (search, listing, occasion) is recorded once, with its events
 * in the same transaction: a retried job finds its rows and tells nobody twice.
 */
@Injectable()
export class SavedSearchMatcher {
  private readonly logger = new Logger('SavedSearches');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(ListingMatches) private readonly listings: ListingMatches,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @OnDomainEvent('listing.published', { name: 'saved-searches.match-published', queue: 'notifications' })
  async published(event: DomainEvent<'listing.published'>): Promise<void> {
    await this.match(event.payload.listingId, 'published');
  }

  @OnDomainEvent('listing.updated', { name: 'saved-searches.match-price-change', queue: 'notifications' })
  async updated(event: DomainEvent<'listing.updated'>): Promise<void> {
    if (event.payload.changed.includes('pricePence')) await this.match(event.payload.listingId, 'price-changed');
  }

  /** Matches one listing; the number of (search, occasion) rows it recorded. */
  async match(listingId: string, why: 'published' | 'price-changed'): Promise<number> {
    const listing = await this.listings.percolated(listingId);
    if (!listing || listing.status !== 'live') return 0;
    const candidates = (await this.candidates(listing)).filter((candidate) => candidate.user_id !== listing.sellerId);
    // Each candidate confirmed by its own search's filters, all in one statement.
    const asked = candidates.flatMap((candidate) => {
      const read = searchQueryFromJson(candidate.query);
      return 'errors' in read ? [] : [{ key: candidate.id, query: read.query }];
    });
    const found = new Set(await this.listings.finding(asked, listing.id));
    const confirmed = candidates.filter((candidate) => found.has(candidate.id));
    if (confirmed.length === 0) return 0;
    return this.record(listing, confirmed, why);
  }

  /** The searches pruning leaves for this listing: sharing a key with it, within their bounds, their owners in good standing. */
  private candidates(listing: PercolatedListing): Promise<Candidate[]> {
    return this.em.getConnection().execute<Candidate[]>(
      `select s.id, s.user_id, s.query, s.frequency, s.price_drops from saved_search s
        join app_user u on u.id = s.user_id and u.deleted_at is null and u.suspended_at is null
        where s.prune_keys && array[?]::text[] and s.paused_at is null
          and (s.category_id is null or s.category_id = ?) and (s.listing_type is null or s.listing_type = ?)
          and (s.min_price_pence is null or s.min_price_pence <= ?) and (s.max_price_pence is null or s.max_price_pence >= ?)
          and (s.cells is null or ?::integer = any(s.cells)) and (s.lexemes is null or s.lexemes <@ array[?]::text[])`,
      [listingKeys(listing), listing.categoryId, listing.type, listing.pricePence, listing.pricePence, listing.geoCell, listing.lexemes],
    );
  }

  /**
   * Records what each search is to hear: the listing, if it never heard of it; a drop, if it only
   * heard of it at higher prices and wants drops. Instant searches are told in the bell, and mailed now
   * unless they were mailed in the last 15 minutes (then remindInstant mails them later).
   */
  private async record(listing: PercolatedListing, searches: Candidate[], why: 'published' | 'price-changed'): Promise<number> {
    const now = this.clock.now();
    return this.em.fork().transactional(async (tx) => {
      const run: Run = (sql, params) => tx.getConnection().execute(sql, params, 'all', tx.getTransactionContext());
      // The lowest price each search was told of: a drop is a price below it (once per price, by the row's key).
      const known = await run<{ saved_search_id: string; price_pence: string }>(
        `select saved_search_id, min(price_pence) as price_pence from saved_search_match
          where listing_id = ? and saved_search_id = any(array[?]::uuid[]) group by saved_search_id`,
        [listing.id, searches.map((search) => search.id)],
      );
      const lowestTold = new Map(known.map((row) => [row.saved_search_id, Number(row.price_pence)]));
      const rows = searches.flatMap((search) => {
        const heard = lowestTold.get(search.id);
        if (heard === undefined) return [{ search, occasion: 'new' }];
        if (why === 'price-changed' && search.price_drops && listing.pricePence < heard)
          return [{ search, occasion: `drop:${listing.pricePence}` }];
        return [];
      });
      if (rows.length === 0) return 0;
      const inserted = await run<{ saved_search_id: string; occasion: string }>(
        `insert into saved_search_match (saved_search_id, listing_id, occasion, mail_batch, price_pence, matched_at)
          select unnest(array[?]::uuid[]), ?, unnest(array[?]::text[]), nullif(unnest(array[?]::text[]), '')::uuid, ?, ?
          on conflict do nothing returning saved_search_id, occasion`,
        [
          rows.map((row) => row.search.id),
          listing.id,
          rows.map((row) => row.occasion),
          // A search sending no e-mail still counts its matches (the profile's "new"), never to mail them later.
          // (The ORM cannot bind a null inside an array: '' is none.)
          rows.map((row) => (row.search.frequency === 'off' ? NOT_MAILED : '')),
          listing.pricePence,
          now,
        ],
      );
      const instant = new Set(searches.filter((search) => search.frequency === 'instant').map((search) => search.id));
      for (const row of inserted) {
        if (!instant.has(row.saved_search_id)) continue;
        this.events.publish(tx, 'saved-search.matched', {
          savedSearchId: row.saved_search_id,
          listingId: listing.id,
          occasion: row.occasion,
        });
      }
      await this.batchInstantMail(
        tx,
        now,
        [...new Set(inserted.map((row) => row.saved_search_id))].filter((id) => instant.has(id)),
      );
      return inserted.length;
    });
  }

  /** Instant searches' matches left for the 15 minutes after their last e-mail: mailed once those have passed. */
  @ScheduledJob({ name: 'saved-searches.instant-mail', queue: 'maintenance', everyMs: 60_000 })
  async remindInstant(): Promise<void> {
    const batches = await this.em.fork().transactional((tx) => this.batchInstantMail(tx, this.clock.now()));
    if (batches > 0) this.logger.log(`${batches} saved-search e-mail(s) queued`);
  }

  /**
   * Gathers each instant search's unmailed matches into one e-mail (a batch), unless the search
   * was mailed in the last 15 minutes, and publishes it to be sent, in `tx`. A search being
   * batched elsewhere is skipped (the sweep comes back to it).
   */
  private async batchInstantMail(tx: EntityManager, now: Date, only?: string[]): Promise<number> {
    if (only?.length === 0) return 0;
    const run: Run = (sql, params) => tx.getConnection().execute(sql, params, 'all', tx.getTransactionContext());
    const due = await run<{ id: string; user_id: string }>(
      `select s.id, s.user_id from saved_search s
        where s.frequency = 'instant' and s.paused_at is null and (s.last_mailed_at is null or s.last_mailed_at <= ?)
          and exists (select 1 from saved_search_match m where m.saved_search_id = s.id and m.mail_batch is null)
          ${only ? 'and s.id = any(array[?]::uuid[])' : ''}
        order by s.id limit 500 for update of s skip locked`,
      [new Date(now.getTime() - INSTANT_MAIL_EVERY_MINUTES * 60_000), ...(only ? [only] : [])],
    );
    for (const search of due) {
      const batchId = randomUUID();
      await run(`update saved_search_match set mail_batch = ? where saved_search_id = ? and mail_batch is null`, [batchId, search.id]);
      await run(`update saved_search set last_mailed_at = ? where id = ?`, [now, search.id]);
      this.events.publish(tx, 'saved-search.mail-due', { userId: search.user_id, batchId, kind: 'instant' });
    }
    return due.length;
  }
}
