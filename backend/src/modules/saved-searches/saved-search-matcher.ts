import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { INSTANT_MAIL_EVERY_MINUTES } from '../../contracts/saved-searches.js';
import type { DomainEvent } from '../../events/domain-events.js';
import { CLOCK, type Clock } from '../../infra/clock/clock.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { OnDomainEvent, ScheduledJob } from '../../infra/queue/job-registry.js';
import { isUuid } from '../../common/uuid.js';
import { arcMetresSql } from '../listings/listing-search/search-sql.js';
import { publishMailsDue } from './mails-due.js';
import { MATCH_COLUMNS_VERSION } from './search-percolator.js';

type Run = <T>(sql: string, params: unknown[]) => Promise<T[]>;

/** Matchings hold it shared while they record; a horizon is read holding it alone (matchedHorizon). */
const MATCHING_LOCK = 'saved-search-matching';

/**
 * The filters a prune row (saved_search_prune) holds, on the listing `l`, over the row or search `s`:
 * browse's filters (ListingSearchSql) for category, type, price as stored, required words and the
 * radius. A search's whole test when its prune row says `exact`.
 */
const pruneFilters = (s: string) => `(${s}.category_id is null or ${s}.category_id = l.category_id)
  and (${s}.listing_type is null or ${s}.listing_type = l.type)
  and (${s}.min_price_pence is null or l.price_pence >= ${s}.min_price_pence)
  and (${s}.max_price_pence is null or l.price_pence <= ${s}.max_price_pence)
  and (${s}.lexemes is null or ${s}.lexemes <@ l.lexemes)
  and (${s}.radius_metres is null or ((${s}.box_south is null or (l.latitude between ${s}.box_south and ${s}.box_north
      and l.longitude between ${s}.box_west and ${s}.box_east))
    and ${arcMetresSql(`${s}.near_latitude`, `${s}.near_cosine`, `${s}.near_longitude`)} <= ${s}.radius_metres))`;

/**
 * A saved search's filters on the listing `l` (its seller's `business_verified_at` beside it), over the
 * search's match columns `s` (search-percolator's MatchColumns): browse's filters (ListingSearchSql), each
 * written over the column that holds its value; the prune row's first.
 */
const CONFIRMED = `${pruneFilters('s')}
  and (s.rent_subcategory is null or s.rent_subcategory = l.rent_subcategory)
  and (s.price_unit is null or (select p is not null and (s.unit_min_price_pence is null or p >= s.unit_min_price_pence)
      and (s.unit_max_price_pence is null or p <= s.unit_max_price_pence)
    from listing_price_in_unit(l.price_pence, l.price_unit, l.attributes, s.price_unit) as p))
  and (s.words_query is null or l.search_vector @@ s.words_query)
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
 * The searches a listing matches: its candidates from the prune rows under any of its keys (an index-only
 * scan of saved_search_prune's covering index), each confirmed there when its row is exact, else by its
 * search's own columns (CONFIRMED). Never the seller's own searches.
 */
const CONFIRMING = `listing_keys as (select listing_prune_keys(l.geo_cell, l.lexemes, l.category_id, l.type) as keys from l),
  pruned as (select p.number, p.user_id, p.exact from l, saved_search_prune p
    where p.key = any(array(select unnest(keys) from listing_keys)) and p.match_version = $2 and p.user_id <> l.seller_id and ${pruneFilters('p')}),
  confirmed as (select number from (select number, user_id from pruned where exact
      union all
      select s.number, s.user_id from pruned p join saved_search s on s.number = p.number cross join l where not p.exact and ${CONFIRMED}) c
    -- Not a suspended account's, nor one deleted whose searches have not gone yet: the few such accounts, hashed once
    -- (app_user_inactive_index). A search has one key the listing shares, so each comes once (a word's hash twice at most).
    where c.user_id not in (select id from app_user where suspended_at is not null or deleted_at is not null))`;

/**
 * What each confirmed search is to hear: a newly published listing is new to every one that has not
 * heard of it (a retry's searches are already recorded); after a price change, the listing if it never
 * heard of it, else a drop if the price is below the lowest it was told of and it wants drops.
 */
const TOLD_NEW = `told as (select number, 'new'::text as occasion from confirmed
    except select unnest(h.searches), 'new' from saved_search_hit h, l where h.listing_id = l.id and h.occasion = 'new')`;
const TOLD_NEW_OR_DROP = `known as (select n.number, min(h.price_pence) as lowest from saved_search_hit h cross join unnest(h.searches) as n(number)
    where h.listing_id = (select id from l) group by n.number),
  told as (select c.number, case when k.lowest is null then 'new'
      when l.price_pence < k.lowest and (select s.price_drops from saved_search s where s.number = c.number) then 'drop:' || l.price_pence end
      as occasion
    from (select distinct number from confirmed) c cross join l left join known k on k.number = c.number)`;

/** An instant search `s` that may be mailed now: not paused, and not mailed since the time bound to it (instantMailedBefore). */
const INSTANT_DUE = `s.frequency = 'instant' and s.paused_at is null and (s.last_mailed_at is null or s.last_mailed_at <= ?)`;
const instantMailedBefore = (now: Date) => new Date(now.getTime() - INSTANT_MAIL_EVERY_MINUTES * 60_000);

/**
 * Matching one listing ($1, under match columns version $2, recorded as matched at $3): finds its searches and records
 * what they are told, in one statement; `name` is its prepared statement's on each connection.
 */
const matchStatement = (told: string) => `with l as (select l.*, tsvector_to_array(l.search_vector) as lexemes, seller.business_verified_at
    from listing l join app_user seller on seller.id = l.seller_id where l.id = $1 and l.status = 'live'),
  ${CONFIRMING},
  ${told},
  recorded as (insert into saved_search_hit (listing_id, occasion, price_pence, matched_at, searches)
    select l.id, t.occasion, l.price_pence, $3, array_agg(t.number order by t.number) from l, told t where t.occasion is not null
    group by l.id, l.price_pence, t.occasion returning cardinality(searches) as told)
select told from recorded`;
const MATCH_STATEMENTS = {
  published: { name: 'fm_saved_search_match_new', sql: matchStatement(TOLD_NEW) },
  'price-changed': { name: 'fm_saved_search_match_price', sql: matchStatement(TOLD_NEW_OR_DROP) },
} as const;

/**
 * Matches each newly published listing, and each listing whose price changed, against every saved
 * search: reverse search (Elasticsearch's percolator is the model). One statement finds the searches
 * (CONFIRMING: browse's rules, so an alert never announces a listing the search's page would not
 * show) and records what they are told in one row a listing and occasion (saved_search_hit); an event
 * then rings the instant searches' bells and batches their e-mails, in the same transaction: a
 * retried job finds its searches recorded and tells nobody twice.
 */
@Injectable()
export class SavedSearchMatcher {
  private readonly logger = new Logger('SavedSearches');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
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
   * Matches one listing; the number of (search, occasion) pairs it recorded: the listing, to each
   * search that never heard of it; a drop, to each that only heard of it at higher prices and wants
   * drops (once per price).
   */
  async match(listingId: string, why: 'published' | 'price-changed'): Promise<number> {
    if (!isUuid(listingId)) return 0;
    const now = this.clock.now();
    return this.em.fork().transactional(async (tx) => {
      const run: Run = (sql, params) => tx.getConnection().execute(sql, params, 'all', tx.getTransactionContext());
      // One matching of a listing at a time (what it was told is read, then added to); none while a horizon is read.
      // The statement is this connection's prepared statement, planned once (its plan does not depend on the listing).
      const statement = MATCH_STATEMENTS[why];
      const [state] = await run<{ prepared: boolean }>(
        `select pg_advisory_xact_lock_shared(hashtext(?)), pg_advisory_xact_lock(hashtext(?)),
          set_config('plan_cache_mode', 'force_generic_plan', true),
          exists (select 1 from pg_prepared_statements where name = ?) as prepared`,
        [MATCHING_LOCK, `saved-search-match:${listingId}`, statement.name],
      );
      if (!state?.prepared) await run(`prepare ${statement.name} (uuid, int, timestamptz) as ${statement.sql}`, []);
      const rows = await run<{ told: number }>(`execute ${statement.name}(?, ?, ?)`, [listingId, MATCH_COLUMNS_VERSION, now]);
      const told = rows.reduce((sum, row) => sum + row.told, 0);
      if (told > 0) this.events.publish(tx, 'saved-search.listing-matched', { listingId, matchedAt: now.toISOString() });
      return told;
    });
  }

  /**
   * A listing's matching told instant searches: each due for its e-mail gets one now, with its matches up to this
   * listing's (the rest wait for the sweep). Which are due is read first, without the horizon: in a burst, most
   * listings' instant searches were mailed minutes before, and such a listing then never waits for (nor holds up)
   * the matchings at work.
   */
  @OnDomainEvent('saved-search.listing-matched', { name: 'saved-searches.instant-mail-due', queue: 'mail' })
  async listingMatched(event: DomainEvent<'saved-search.listing-matched'>): Promise<void> {
    const { listingId, matchedAt } = event.payload;
    const now = this.clock.now();
    // Only narrows: batchInstantMail checks each search again, locked.
    const [due] = await this.em.getConnection().execute<Array<{ through: string | null; numbers: number[] | null }>>(
      `select max(h.id) as through, array_agg(s.number) as numbers from saved_search_hit h cross join unnest(h.searches) as n(number)
          join saved_search s on s.number = n.number
        where h.listing_id = ? and h.matched_at = ? and ${INSTANT_DUE} and s.mailed_through < h.id`,
      [listingId, new Date(matchedAt), instantMailedBefore(now)],
    );
    const through = due?.through;
    const numbers = due?.numbers;
    if (!through || !numbers) return;
    // Every matching that took an earlier match row has committed once the horizon is read: none is passed over.
    const horizon = await matchedHorizon(this.em);
    await this.em
      .fork()
      .transactional((tx) => this.batchInstantMail(tx, now, BigInt(through) < BigInt(horizon) ? through : horizon, numbers));
  }

  /** Instant searches' matches left for the 15 minutes after their last e-mail: mailed once those have passed. */
  @ScheduledJob({ name: 'saved-searches.instant-mail', queue: 'maintenance', everyMs: 60_000 })
  async remindInstant(): Promise<void> {
    const through = await matchedHorizon(this.em);
    const batches = await this.em.fork().transactional((tx) => this.batchInstantMail(tx, this.clock.now(), through));
    if (batches > 0) this.logger.log(`${batches} saved-search e-mail(s) queued`);
  }

  /**
   * Gathers each instant search's matches since its last e-mail, up to `through`, into one e-mail (a
   * batch), unless the search was mailed in the last 15 minutes, and publishes it to be sent, in `tx`.
   * A search being batched elsewhere is skipped (the sweep comes back to it).
   */
  private async batchInstantMail(tx: EntityManager, now: Date, through: string, only?: number[]): Promise<number> {
    if (only?.length === 0) return 0;
    const run: Run = (sql, params) => tx.getConnection().execute(sql, params, 'all', tx.getTransactionContext());
    const due = await run<{ batch: string }>(
      `with due as (select s.id, s.user_id, s.mailed_through, gen_random_uuid() as batch from saved_search s
          where ${INSTANT_DUE} and s.mailed_through < ?::bigint ${only ? 'and s.number = any(array[?]::int[])' : ''}
            and exists (select 1 from saved_search_hit h where h.searches && array[s.number] and h.id > s.mailed_through and h.id <= ?::bigint)
          order by s.id limit 500 for update of s skip locked),
        parts as (insert into saved_search_mail_part (batch_id, saved_search_id, after_hit, through_hit)
          select batch, id, mailed_through, ?::bigint from due),
        stamped as (update saved_search s set last_mailed_at = ?, mailed_through = ?::bigint from due where s.id = due.id)
      select batch from due`,
      [instantMailedBefore(now), through, ...(only ? [only] : []), through, through, now, through],
    );
    publishMailsDue(
      this.events,
      tx,
      'instant',
      due.map((search) => search.batch),
    );
    return due.length;
  }
}

/**
 * The last match (saved_search_hit id) no matching still at work can come before: read while no
 * matching records (they hold MATCHING_LOCK shared), so every match up to it is committed and none
 * is added below it later. E-mails gather matches up to a horizon, and a search's next e-mail starts
 * after it: none is skipped, none mailed twice.
 */
export async function matchedHorizon(em: EntityManager, matchedBy?: Date): Promise<string> {
  return em.fork().transactional(async (tx) => {
    const run: Run = (sql, params) => tx.getConnection().execute(sql, params, 'all', tx.getTransactionContext());
    await run('select pg_advisory_xact_lock(hashtext(?))', [MATCHING_LOCK]);
    const [row] = await run<{ through: string | null }>(
      matchedBy
        ? 'select id as through from saved_search_hit where matched_at <= ? order by id desc limit 1'
        : 'select max(id) as through from saved_search_hit',
      matchedBy ? [matchedBy] : [],
    );
    return String(row?.through ?? '0');
  });
}
