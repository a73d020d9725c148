import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { INSTANT_MAIL_EVERY_MINUTES } from '../../contracts/saved-searches.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { ListingMatches } from '../listings/listing-search/listing-matches.js';
import { arcMetresSql } from '../listings/listing-search/search-sql.js';
import { NOT_MAILED } from './saved-search.entity.js';
import { listingKeys, MATCH_COLUMNS_VERSION } from './search-percolator.js';

type Run = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/**
 * A saved search's filters on the listing `l` (its seller's `business_verified_at` beside it), over the
 * search's match columns `s` (search-percolator's MatchColumns): browse's filters (ListingSearchSql), each
 * written over the column that holds its value. The prune conditions (category, type, price as stored,
 * the radius's squares, required words) are exact where they apply and come first.
 */
const CONFIRMED = `(s.category_id is null or s.category_id = l.category_id)
  and (s.listing_type is null or s.listing_type = l.type)
  and (s.min_price_pence is null or l.price_pence >= s.min_price_pence)
  and (s.max_price_pence is null or l.price_pence <= s.max_price_pence)
  and (s.cells is null or l.geo_cell = any(s.cells))
  and (s.lexemes is null or s.lexemes <@ l.lexemes)
  and (s.rent_subcategory is null or s.rent_subcategory = l.rent_subcategory)
  and (s.price_unit is null or (select p is not null and (s.unit_min_price_pence is null or p >= s.unit_min_price_pence)
      and (s.unit_max_price_pence is null or p <= s.unit_max_price_pence)
    from listing_price_in_unit(l.price_pence, l.price_unit, l.attributes, s.price_unit) as p))
  and (s.words_query is null or l.search_vector @@ s.words_query)
  and (s.radius_metres is null or ((s.box_south is null or (l.latitude between s.box_south and s.box_north
      and l.longitude between s.box_west and s.box_east))
    and ${arcMetresSql('s.near_latitude', 's.near_cosine', 's.near_longitude')} <= s.radius_metres))
  and (not s.verified_only or l.business_verified_at is not null)
  and (not s.featured_only or l.featured)
  and (s.posted_within_days is null or l.published_at >= now() - make_interval(days => s.posted_within_days))
  and (s.attribute_ranges is null or not exists (select 1 from jsonb_to_recordset(s.attribute_ranges) as r(key text, min numeric, max numeric)
    where ((r.min is null or (l.attributes->>r.key)::numeric >= r.min) and (r.max is null or (l.attributes->>r.key)::numeric <= r.max)) is not true))
  and (s.attribute_matches is null or not exists (select 1 from jsonb_to_recordset(s.attribute_matches)
      as a(key text, equals text, "anyOf" text[], "dateFrom" text, "dateTo" text)
    where (case when a.equals is not null then l.attributes->>a.key = a.equals
      when a."anyOf" is not null then jsonb_exists_any(l.attributes->a.key, a."anyOf")
      else l.attributes->>a.key between a."dateFrom" and a."dateTo" end) is not true))`;

/**
 * What each confirmed search is to hear: a newly published listing is new to every one (a retry's
 * rows are already there, and the insert skips them); after a price change, the listing if it never
 * heard of it, else a drop if the price is below the lowest it was told of and it wants drops.
 */
const TOLD_NEW = `select c.id, c.frequency, c.price_pence, 'new' as occasion from confirmed c`;
const TOLD_NEW_OR_DROP = `select c.id, c.frequency, c.price_pence, case when k.lowest is null then 'new'
    when c.price_drops and c.price_pence < k.lowest then 'drop:' || c.price_pence end as occasion
  from confirmed c left join lateral (select min(m.price_pence) as lowest from saved_search_match m
    where m.saved_search_id = c.id and m.listing_id = ?) k on true`;

/**
 * Matches each newly published listing, and each listing whose price changed, against every saved
 * search: reverse search (Elasticsearch's percolator is the model). One statement prunes the searches
 * by their keys (a GIN lookup), confirms each candidate by its own filters held in columns
 * (CONFIRMED: browse's rules, so an alert never announces a listing the search's page would not
 * show), and records each (search, listing, occasion) once; a second stamps the instant searches'
 * e-mail batches. One event per listing then rings every instant search's bell, in the same
 * transaction: a retried job finds its rows and tells nobody twice.
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

  /**
   * Matches one listing; the number of (search, occasion) rows it recorded: the listing, to each
   * search that never heard of it; a drop, to each that only heard of it at higher prices and wants
   * drops (once per price, by the row's key).
   */
  async match(listingId: string, why: 'published' | 'price-changed'): Promise<number> {
    const listing = await this.listings.percolated(listingId);
    if (!listing || listing.status !== 'live') return 0;
    const now = this.clock.now();
    return this.em.fork().transactional(async (tx) => {
      const run: Run = (sql, params) => tx.getConnection().execute(sql, params, 'all', tx.getTransactionContext());
      const [result] = await run<{ recorded: number; instant: string[] | null }>(
        `with l as (select l.*, tsvector_to_array(l.search_vector) as lexemes, seller.business_verified_at
            from listing l join app_user seller on seller.id = l.seller_id where l.id = ? and l.status = 'live'),
          confirmed as (select s.id, s.frequency, s.price_drops, l.price_pence from l, saved_search s
            join app_user u on u.id = s.user_id and u.deleted_at is null and u.suspended_at is null
            where s.prune_keys && array[?]::text[] and s.paused_at is null and s.match_version = ? and s.user_id <> l.seller_id and ${CONFIRMED}),
          told as (${why === 'published' ? TOLD_NEW : TOLD_NEW_OR_DROP}),
          inserted as (insert into saved_search_match (saved_search_id, listing_id, occasion, mail_batch, price_pence, matched_at)
            select t.id, ?, t.occasion, case when t.frequency = 'off' then ?::uuid end, t.price_pence, ? from told t where t.occasion is not null
            on conflict do nothing returning saved_search_id)
        select count(*)::int as recorded, array_agg(i.saved_search_id) filter (where t.frequency = 'instant') as instant
          from inserted i join told t on t.id = i.saved_search_id`,
        [
          listing.id,
          listingKeys(listing),
          MATCH_COLUMNS_VERSION,
          ...(why === 'published' ? [] : [listing.id]),
          listing.id,
          // A search sending no e-mail still counts its matches (the profile's "new"), never to mail them later.
          NOT_MAILED,
          now,
        ],
      );
      const instant = result?.instant ?? [];
      if (instant.length > 0) {
        this.events.publish(tx, 'saved-search.listing-matched', { listingId: listing.id, matchedAt: now.toISOString() });
        await this.batchInstantMail(tx, now, instant);
      }
      return result?.recorded ?? 0;
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
    // Each due search's unmailed matches become one batch (an e-mail), and its 15 minutes start now.
    const due = await run<{ id: string; user_id: string; batch: string }>(
      `with due as (select s.id, s.user_id, gen_random_uuid() as batch from saved_search s
          where s.frequency = 'instant' and s.paused_at is null and (s.last_mailed_at is null or s.last_mailed_at <= ?)
            and exists (select 1 from saved_search_match m where m.saved_search_id = s.id and m.mail_batch is null)
            ${only ? 'and s.id = any(array[?]::uuid[])' : ''}
          order by s.id limit 500 for update of s skip locked),
        batched as (update saved_search_match m set mail_batch = due.batch from due where m.saved_search_id = due.id and m.mail_batch is null),
        stamped as (update saved_search s set last_mailed_at = ? from due where s.id = due.id)
      select id, user_id, batch from due`,
      [new Date(now.getTime() - INSTANT_MAIL_EVERY_MINUTES * 60_000), ...(only ? [only] : []), now],
    );
    for (const search of due)
      this.events.publish(tx, 'saved-search.mail-due', { userId: search.user_id, batchId: search.batch, kind: 'instant' });
    return due.length;
  }
}
