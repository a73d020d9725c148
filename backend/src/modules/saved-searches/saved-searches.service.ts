import { formatPounds } from '../../contracts/listing-display.js';
import { EntityManager } from '@mikro-orm/postgresql';
import { ConflictException, Inject, Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { FieldValidationException } from '../../common/errors.js';
import { isUuid } from '../../common/uuid.js';
import { categoryBySlug } from '../../contracts/categories.js';
import { SAVED_SEARCH_CAP, SAVED_SEARCH_NAME_MAX, SAVED_SEARCH_TEXTS } from '../../contracts/saved-searches.js';
import { ListingMatches } from '../listings/listing-search/listing-matches.js';
import { parseSearchQuery, type SearchQuery, searchQueryFromJson, searchQueryToJson } from '../listings/listing-search/search-query.js';
import type { CreateSavedSearchRequest, SavedSearchView, UpdateSavedSearchRequest } from './dto/saved-search.dto.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import { User } from '../users/user.entity.js';
import { matchedHorizon } from './saved-search-matcher.js';
import { SavedSearch } from './saved-search.entity.js';
import { MATCH_COLUMNS_VERSION, matchColumnsOf, matchColumnsRow, requiredLexemes } from './search-percolator.js';
import { ScheduledJob } from '../../infra/queue/job-registry.js';

/**
 * Saved searches, the use cases: save the browse page's query (checked as browse checks it, with
 * what prunes it for reverse search), list them with their new matches, change, pause, delete,
 * unsubscribe from a link. Every call is scoped to its owner; another's id answers 404.
 */
@Injectable()
export class SavedSearchesService implements OnModuleInit {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(ListingMatches) private readonly matches: ListingMatches,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
  ) {}

  /** The user's saved searches are part of their data export. */
  onModuleInit(): void {
    this.userData.addPart({ name: 'saved_searches', exportFor: (userId) => this.list(userId) });
  }

  async create(userId: string, body: CreateSavedSearchRequest): Promise<SavedSearchView> {
    const query = this.parsed(body.query);
    const em = this.em.fork();
    const saved = await em.transactional(async (tx) => {
      // One at a time per user, so two quick saves cannot both pass the cap.
      await tx
        .getConnection()
        .execute('select pg_advisory_xact_lock(hashtext(?))', [`saved-search:${userId}`], 'all', tx.getTransactionContext());
      if ((await tx.count(SavedSearch, { user: userId })) >= SAVED_SEARCH_CAP) throw new ConflictException(SAVED_SEARCH_TEXTS.capReached);
      const search = Object.assign(new SavedSearch(), {
        user: tx.getReference(User, userId),
        name: body.name || (await this.suggestedName(query)),
        query: searchQueryToJson(query),
        frequency: body.frequency ?? 'instant',
        priceDrops: body.price_drops ?? true,
        ...(await this.pruneColumns(query)),
      });
      tx.persist(search);
      return search;
    });
    return viewOf(saved, 0);
  }

  /** The name the save form suggests: "Massey Ferguson tractors within 25 miles of Taunton under £40,000". */
  async suggestion(queryString: string): Promise<string> {
    return this.suggestedName(this.parsed(queryString));
  }

  async list(userId: string): Promise<SavedSearchView[]> {
    const em = this.em.fork();
    const searches = await em.find(SavedSearch, { user: userId }, { orderBy: { createdAt: 'desc' } });
    const counts = await this.newMatchCounts(searches);
    return searches.map((search) => viewOf(search, counts.get(search.id) ?? 0));
  }

  async get(userId: string, id: string): Promise<SavedSearchView> {
    const search = await this.owned(this.em.fork(), userId, id);
    return viewOf(search, (await this.newMatchCounts([search])).get(search.id) ?? 0);
  }

  async update(userId: string, id: string, body: UpdateSavedSearchRequest): Promise<SavedSearchView> {
    const search = await this.em.fork().transactional(async (tx) => {
      const search = await this.owned(tx, userId, id);
      const mailed = search.frequency !== 'off';
      if (body.name !== undefined) search.name = body.name || (await this.suggestedName(this.readableQueryOf(search)));
      if (body.frequency !== undefined) search.frequency = body.frequency;
      if (body.price_drops !== undefined) search.priceDrops = body.price_drops;
      if (body.paused !== undefined) search.pausedAt = body.paused ? (search.pausedAt ?? new Date()) : null;
      // E-mails back on: what matched while they were off is not mailed now (only what matches from here on).
      if (!mailed && search.frequency !== 'off') search.mailedThrough = await matchedHorizon(this.em);
      return search;
    });
    return viewOf(search, (await this.newMatchCounts([search])).get(search.id) ?? 0);
  }

  /** Opened (as a browse page): its matches so far are no longer new. */
  async seen(userId: string, id: string): Promise<SavedSearchView> {
    const em = this.em.fork();
    const search = await this.owned(em, userId, id);
    search.lastSeenAt = new Date();
    await em.flush();
    return viewOf(search, 0);
  }

  async remove(userId: string, id: string): Promise<void> {
    const em = this.em.fork();
    em.remove(await this.owned(em, userId, id));
    await em.flush();
  }

  /** The one-click link of an alert e-mail: its searches send no more e-mail (they are kept, frequency off). */
  async unsubscribe(tokens: string[]): Promise<string> {
    const valid = tokens.filter((token) => /^[\w-]{43}$/.test(token));
    const changed =
      valid.length === 0 ? 0 : await this.em.fork().nativeUpdate(SavedSearch, { unsubscribeToken: { $in: valid } }, { frequency: 'off' });
    if (changed === 0) throw new FieldValidationException({ token: SAVED_SEARCH_TEXTS.badToken });
    return SAVED_SEARCH_TEXTS.unsubscribed;
  }

  /**
   * For alerts (the bell): what instant searches of active users were told of this listing by one
   * matching (SavedSearchMatcher) at `matchedAt`.
   */
  async instantMatches(
    listingId: string,
    matchedAt: Date,
  ): Promise<Array<{ searchId: string; userId: string; name: string; occasion: string }>> {
    const rows = await this.em.getConnection().execute<Array<{ search_id: string; user_id: string; name: string; occasion: string }>>(
      `select s.id as search_id, s.user_id, s.name, h.occasion from saved_search_hit h cross join unnest(h.searches) as n(number)
          join saved_search s on s.number = n.number join app_user u on u.id = s.user_id and u.deleted_at is null and u.suspended_at is null
        where h.listing_id = ? and h.matched_at = ? and s.frequency = 'instant'`,
      [listingId, matchedAt],
    );
    return rows.map((row) => ({ searchId: row.search_id, userId: row.user_id, name: row.name, occasion: row.occasion }));
  }

  /** For alerts (the bell): the search if it alerts instantly and its owner is active. */
  async instantSearch(id: string): Promise<{ searchId: string; userId: string; name: string } | null> {
    if (!isUuid(id)) return null;
    const [row] = await this.em.getConnection().execute<Array<{ user_id: string; name: string }>>(
      `select s.user_id, s.name from saved_search s join app_user u on u.id = s.user_id and u.deleted_at is null and u.suspended_at is null
        where s.id = ? and s.frequency = 'instant' and s.paused_at is null`,
      [id],
    );
    return row ? { searchId: id, userId: row.user_id, name: row.name } : null;
  }

  /** A deleted account's saved searches (the account's row stays, anonymised, so no cascade removes them). */
  async forget(userId: string): Promise<void> {
    await this.em.fork().nativeDelete(SavedSearch, { user: userId });
  }

  queryOf(search: Pick<SavedSearch, 'query'>): SearchQuery {
    const read = searchQueryFromJson(search.query);
    // Stored only after the same check: a failure here is a bug (or a query of an older version), not the user's.
    if ('errors' in read) throw new Error(`A stored search query no longer reads: ${JSON.stringify(read.errors)}`);
    return read.query;
  }

  /** The stored query, or a clear refusal (not a failure) when it was stored by an older version and no longer reads. */
  private readableQueryOf(search: Pick<SavedSearch, 'query'>): SearchQuery {
    const read = searchQueryFromJson(search.query);
    if ('errors' in read) throw new FieldValidationException({ name: SAVED_SEARCH_TEXTS.outdatedQuery });
    return read.query;
  }

  private parsed(queryString: string): SearchQuery {
    const parsed = parseSearchQuery(new URLSearchParams(queryString.replace(/^\?/, '')));
    if ('errors' in parsed) throw new FieldValidationException(parsed.errors);
    return parsed.query;
  }

  /** What prunes and confirms the search when listings are matched against it (SearchPercolator). Refuses a place id that names none. */
  private async pruneColumns(query: SearchQuery) {
    const resolved = await this.matches.resolved(query);
    const lexemes = query.text ? requiredLexemes(await this.matches.querytree(query.text)) : null;
    return matchColumnsRow(matchColumnsOf(resolved, query.text, lexemes));
  }

  /**
   * Works out the match columns of searches stored without them (saved before they existed, or under
   * an older MATCH_COLUMNS_VERSION), a few hundred a minute. One whose query no longer reads, or whose
   * place is gone, is left out of matching (no keys), as its page finds nothing either.
   */
  @ScheduledJob({ name: 'saved-searches.prepare', queue: 'maintenance', everyMs: 60_000 })
  async prepare(): Promise<void> {
    const em = this.em.fork();
    const searches = await em.find(
      SavedSearch,
      { $or: [{ matchVersion: null }, { matchVersion: { $nin: [MATCH_COLUMNS_VERSION, -MATCH_COLUMNS_VERSION] } }] },
      { limit: 500, orderBy: { id: 'asc' } },
    );
    for (const search of searches) {
      const read = searchQueryFromJson(search.query);
      const columns = 'errors' in read ? null : await this.pruneColumns(read.query).catch(() => null);
      // One that cannot be worked out is marked so (a negative version): it matches nothing and is not tried again.
      Object.assign(search, columns ?? { matchVersion: -MATCH_COLUMNS_VERSION });
    }
    await em.flush();
  }

  private async suggestedName(query: SearchQuery): Promise<string> {
    const category = query.category ? categoryBySlug(query.category)?.name : undefined;
    const what = query.text ?? (category ? `${category} listings` : 'All listings');
    const parts = [query.text && category ? `${what} in ${category}` : what];
    if (query.type) parts.push(query.type === 'rent' ? 'to rent' : 'for sale');
    if (query.location) {
      const place = await this.matches.placeName(query.location);
      if (place) parts.push(`within ${query.radiusMiles} miles of ${place}`);
    }
    const { minPricePence: min, maxPricePence: max } = query;
    if (min !== undefined && max !== undefined) parts.push(`${formatPounds(min / 100)} to ${formatPounds(max / 100)}`);
    else if (max !== undefined) parts.push(`under ${formatPounds(max / 100)}`);
    else if (min !== undefined) parts.push(`over ${formatPounds(min / 100)}`);
    const name = parts.join(' ');
    return name.length <= SAVED_SEARCH_NAME_MAX ? name : `${name.slice(0, SAVED_SEARCH_NAME_MAX - 1)}…`;
  }

  private async owned(em: EntityManager, userId: string, id: string): Promise<SavedSearch> {
    const search = isUuid(id) ? await em.findOne(SavedSearch, { id, user: userId }) : null;
    if (!search) throw new NotFoundException(SAVED_SEARCH_TEXTS.notFound);
    return search;
  }

  private async newMatchCounts(searches: SavedSearch[]): Promise<Map<string, number>> {
    if (searches.length === 0) return new Map();
    const rows = await this.em.getConnection().execute<Array<{ id: string; count: number }>>(
      `select s.id, (select count(*) from saved_search_hit h
          where h.searches && array[s.number] and h.occasion = 'new' and h.matched_at > s.last_seen_at)::int as count
        from saved_search s where s.id = any(array[?]::uuid[])`,
      [searches.map((search) => search.id)],
    );
    return new Map(rows.map((row) => [row.id, row.count]));
  }
}

function viewOf(search: SavedSearch, newMatches: number): SavedSearchView {
  const query = new URLSearchParams(search.query.params).toString();
  return {
    id: search.id,
    name: search.name,
    query,
    browse_url: `/browse${query ? `?${query}` : ''}`,
    frequency: search.frequency,
    price_drops: search.priceDrops,
    paused: Boolean(search.pausedAt),
    new_matches: newMatches,
    created_at: search.createdAt.toISOString(),
  };
}
