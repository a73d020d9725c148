import { EntityManager } from '@mikro-orm/postgresql';
import { BadRequestException, ForbiddenException, Inject, Injectable, NotFoundException } from '@nestjs/common';
import { FieldValidationException } from '../../common/errors.js';
import { decodeCursor, encodeCursor } from '../../common/keyset-pagination.js';
import { CATEGORIES, categoryBySlug, type CategorySlug } from '../../contracts/categories.js';
import {
  categoryFieldError,
  DATE_RANGES,
  type DateRange,
  fieldsFor,
  LISTING_LIFETIME_DAYS,
  LISTING_TEXTS,
  type ListingSort,
  type ListingStatus,
  type ListingType,
  PAGE_SIZE,
  PRICE_MAX_POUNDS,
  type PriceUnit,
  RENT_PRICE_UNITS,
  type RentSubcategory,
  SALE_CATEGORIES,
  SALE_PRICE_UNITS,
  type VatOption,
} from '../../contracts/listings.js';
import { Geocoder, milesBetween, type Place } from '../../infra/geocoding/geocoder.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { AccountStanding } from '../users/account-standing.js';
import { User } from '../users/user.entity.js';
import type { ListingRequest, ListingSearchRequest } from './dto/listing.request.js';
import type {
  FeaturedListings,
  ListingCard,
  ListingDetail,
  ListingPage,
  SavedListingEntry,
  SaveResult,
  SellerDeclaration,
} from './dto/listing.response.js';
import { ListingImages } from './listing-images.js';
import { GATHER_LIMIT, type ListingQuery, type ListingRow, ListingSearchSql, narrowed } from './listing-search.js';
import { Listing } from './listing.entity.js';
import { ListingWords, rememberTitleWords } from './listing-words.js';
import { SavedListing } from './saved-listing.entity.js';
import { SearchAnswers } from './search-answers.js';
import { ListingViews } from './listing-views.js';
import { connectionFor, PreparedQueries, type ReadFrom } from '../../infra/database/prepared-queries.js';
import { isUuid } from '../../common/uuid.js';

/** Listings one seller may post in a day. */
export const POSTS_PER_DAY = 20;
const TOTAL_CAP = 1_000;
const DEFAULT_RADIUS_MILES = 25;

/** Marks a relevance cursor that has gone past the ranked window (continuingCursor). */
const PAST_WINDOW = 'past-window';

/** A relevance search whose cursor has gone past the ranked window: the older matches, newest first. */
function afterRelevanceWindow(query: ListingQuery): ListingQuery & { pastWindow?: boolean } {
  if (query.sort !== 'relevance' || !query.cursor) return query;
  let values: unknown[];
  try {
    values = decodeCursor(query.cursor, 3);
  } catch {
    return query; // checked where it is used
  }
  // Otherwise a ranked page's cursor: rank, publication, id.
  if (values[0] !== PAST_WINDOW) return query;
  return { ...query, sort: 'newest', cursor: encodeCursor(values.slice(1)), pastWindow: true };
}

/** What other modules may know of a listing, in any state: messaging (a conversation's card, a booking's dates), notifications. */
export interface ListingBrief {
  id: string;
  title: string;
  sellerId: string;
  type: ListingType;
  status: ListingStatus;
  categorySlug: CategorySlug;
  categoryName: string;
  /** In pounds. */
  price: number;
  attributes: Record<string, string | number | boolean>;
  /** The main photo's URL once ready. */
  image: string | null;
}

/** Who asks: a signed-in user (their id) or a visitor, known by address. */
export interface Viewer {
  userId?: string;
  ip: string;
}

@Injectable()
export class ListingsService {
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(Geocoder) private readonly geocoder: Geocoder,
    @Inject(ListingImages) private readonly images: ListingImages,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(ListingViews) private readonly views: ListingViews,
    @Inject(SearchAnswers) private readonly answers: SearchAnswers,
    @Inject(ListingWords) private readonly words: ListingWords,
    @Inject(PreparedQueries) private readonly prepared: PreparedQueries,
    @Inject(AccountStanding) private readonly standing: AccountStanding,
  ) {}

  // ----- Browse and search -----

  /** One page of listings; answers are the same for everyone, so a repeated query is served from the cache. */
  search(request: ListingSearchRequest, rawQuery: Record<string, unknown>): Promise<ListingPage> {
    const key = new URLSearchParams(
      Object.entries(rawQuery)
        .filter(([name]) => name !== '_t')
        .map(([name, value]): [string, string] => [name, String(value)])
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    ).toString();
    return this.answers.get(key, () => this.searchNow(request, rawQuery));
  }

  /** Browse and search read the replica when there is one: the same for everyone, a moment late at worst. */
  private async searchNow(request: ListingSearchRequest, rawQuery: Record<string, unknown>): Promise<ListingPage> {
    let query = await this.planned(afterRelevanceWindow(await this.toQuery(request, rawQuery)));
    // A first page counts its matches beside finding them (two connections), unless planning counted already.
    const [found, counted] = await Promise.all([
      this.page(query, 'replica'),
      query.cursor || query.matches !== undefined ? undefined : this.count(query, 'replica'),
    ]);
    let page = { ...found, nextCursor: await this.continuingCursor(query, found.nextCursor) };
    let searchedFor: string | null = null;
    // Nothing for these words, on a first page: look for the words that were probably meant.
    if (query.text && !query.cursor && page.rows.length === 0) {
      const corrected = await this.words.corrected(query.text);
      if (corrected && corrected !== query.text) {
        query = await this.planned({ ...query, text: corrected });
        page = await this.page(query, 'replica');
        searchedFor = corrected;
      }
    }
    const total = query.cursor ? null : (query.matches ?? counted ?? (await this.count(query, 'replica')));
    return {
      listings: this.cards(page.rows.slice(0, query.limit), query.near),
      next_cursor: page.nextCursor,
      total: total === null ? null : Math.min(total, TOTAL_CAP),
      total_is_lower_bound: total !== null && total > TOTAL_CAP,
      searched_for: searchedFor,
    };
  }

  private async toQuery(request: ListingSearchRequest, rawQuery: Record<string, unknown>): Promise<ListingQuery> {
    const text = request.q?.trim() || undefined;
    const category = request.category ? categoryBySlug(request.category) : undefined;
    const place = request.location ? await this.geocoder.byId(request.location) : undefined;
    if (request.location && !place) throw new FieldValidationException({ location: 'location must be a place id from the list' });
    const minPricePence = searchPence('min_price', request.min_price);
    const maxPricePence = searchPence('max_price', request.max_price);
    if (minPricePence !== undefined && maxPricePence !== undefined && minPricePence > maxPricePence) {
      throw new FieldValidationException({ max_price: 'max_price must not be below min_price' });
    }
    const sort = (request.sort as ListingSort | undefined) ?? (text ? 'relevance' : 'newest');
    return {
      text,
      categoryId: category?.id,
      rentSubcategory: request.subcategory as RentSubcategory | undefined,
      type: request.type === 'buy' ? 'sale' : (request.type as 'sale' | 'rent' | undefined),
      minPricePence,
      maxPricePence,
      near: place,
      radiusMiles: place ? (request.radius ?? DEFAULT_RADIUS_MILES) : undefined,
      verifiedSellersOnly: request.verified,
      featuredOnly: request.featured,
      postedWithinDays: request.date ? DATE_RANGES[request.date as DateRange] || undefined : undefined,
      attributeRanges: attributeRanges(category?.slug, request.subcategory as RentSubcategory | undefined, rawQuery),
      sort,
      cursor: request.cursor,
      limit: request.limit ?? PAGE_SIZE,
    };
  }

  private async page(
    query: ListingQuery & { matches?: number },
    from: ReadFrom = 'primary',
  ): Promise<{ rows: ListingRow[]; nextCursor: string | null }> {
    if (query.matches === 0) return { rows: [], nextCursor: null };
    const sql = new ListingSearchSql(query, this.images.column('l.id'));
    const rows = await this.rows<ListingRow>(sql.page(), sql.pagePlanFixed(), from);
    return { rows, nextCursor: sql.nextCursor(rows) };
  }

  /**
   * Relevance ranks the newest RELEVANCE_WINDOW matches of several common words (one word is ranked
   * whole, from its postings); Load More then goes on with
   * the older matches, newest first, so every match can be reached. Their cursor says so
   * (`afterRelevanceWindow` reads it back).
   */
  private async continuingCursor(query: ListingQuery & { pastWindow?: boolean }, next: string | null): Promise<string | null> {
    if (query.pastWindow) return next && encodeCursor([PAST_WINDOW, ...decodeCursor(next, 2)]);
    if (query.plan !== 'newest' || next) return next;
    const [edge] = await this.rows<{ published_at: string; id: string }>(new ListingSearchSql(query).windowEdge(), false, 'replica');
    return edge ? encodeCursor([PAST_WINDOW, edge.published_at, edge.id]) : null;
  }

  /**
   * Chooses how to find a search's rows (ListingSearchSql's plans): words and places are counted
   * first through their index, so a rare word or a remote place is gathered, never walked.
   */
  private async planned(asked: ListingQuery): Promise<ListingQuery & { matches?: number }> {
    const query = { ...asked, lexeme: undefined, lexemeOnly: undefined, plan: undefined };
    if (!query.text && !query.radiusMiles) return query;
    // Counted beside the page (searchNow), not first.
    if (new ListingSearchSql(query).boundedWalk()) return { ...query, plan: 'walk' };
    const search = query.text && onlyWords(query) ? await this.words.required(query.text, TOTAL_CAP) : undefined;
    // A single word is counted from its postings alone, several words from the rarest one's postings
    // (when that is conclusive); other searches through their index.
    const matches =
      search?.words.length === 1
        ? search.words[0].postings
        : ((search && !search.phrase ? await this.words.countTogether(search.words, TOTAL_CAP) : undefined) ??
          (await this.count(query, 'replica')));
    const rarest = search?.words[0];
    // One word is ranked from its postings' own index of rank, however many listings hold it.
    if (rarest && search.words.length === 1 && query.sort === 'relevance') {
      return { ...query, plan: 'walk', matches, lexeme: rarest.lexeme, lexemeOnly: true };
    }
    const plan = matches <= GATHER_LIMIT ? 'gather' : query.sort === 'relevance' ? 'newest' : 'walk';
    // The rarest word's postings find the matches when they are needed newest first (or all of them).
    const byPostings = rarest && (plan !== 'walk' || query.sort === 'newest' || query.sort === 'oldest');
    return { ...query, plan, matches, lexeme: byPostings ? rarest.lexeme : undefined, lexemeOnly: search?.words.length === 1 };
  }

  private async count(query: ListingQuery, from: ReadFrom): Promise<number> {
    const sql = new ListingSearchSql({ ...query, cursor: undefined });
    const [row] = await this.rows<{ total: number }>(sql.count(TOTAL_CAP), sql.countPlanFixed(), from);
    return row?.total ?? 0;
  }

  /**
   * A search's rows, its values always bound: prepared, with a generic plan, when its SQL fixes its
   * own plan, else planned for its values (PreparedQueries).
   */
  private rows<T>(query: { sql: string; params: unknown[] }, planFixed: boolean, from: ReadFrom): Promise<T[]> {
    return planFixed ? this.prepared.all<T>(query.sql, query.params, from) : this.prepared.bound<T>(query.sql, query.params, from);
  }

  /** Staff's featured listings; while there are none, the newest live listings with photos. */
  async featured(limit: number): Promise<FeaturedListings> {
    const featured = await this.page({ featuredOnly: true, sort: 'newest', limit }, 'replica');
    if (featured.rows.length > 0) return { kind: 'featured', listings: this.cards(featured.rows.slice(0, limit)) };
    const newest = await this.page({ withImagesOnly: true, sort: 'newest', limit }, 'replica');
    return { kind: 'newest', listings: this.cards(newest.rows.slice(0, limit)) };
  }

  /** A seller's live listings, for their public page (only when they show them); the seller's own look reads the primary. */
  async sellerListings(sellerId: string, viewerId: string | undefined, cursor?: string): Promise<ListingPage> {
    const from: ReadFrom = sellerId === viewerId ? 'primary' : 'replica';
    const seller = isUuid(sellerId)
      ? await this.em.fork().findOne(User, { id: sellerId, deletedAt: null }, { connectionType: connectionFor(from) })
      : null;
    if (!seller || (!seller.profileVisible && seller.id !== viewerId)) throw new NotFoundException('Profile not found');
    if (!seller.listingsVisible && seller.id !== viewerId) return emptyPage();
    return this.sellerPage(sellerId, ['live'], cursor, from);
  }

  /** The seller's own listings in every state, for My Listings. */
  async mine(sellerId: string, cursor?: string): Promise<ListingPage> {
    return this.sellerPage(sellerId, ['live', 'sold', 'let', 'withdrawn', 'expired', 'removed'], cursor);
  }

  /** One page of a seller's listings in these states, newest first. */
  private async sellerPage(sellerId: string, statuses: ListingStatus[], cursor?: string, from: ReadFrom = 'primary'): Promise<ListingPage> {
    const page = await this.page({ sellerId, statuses, sort: 'newest', limit: PAGE_SIZE, cursor }, from);
    return {
      listings: this.cards(page.rows.slice(0, PAGE_SIZE)),
      next_cursor: page.nextCursor,
      total: null,
      total_is_lower_bound: false,
      searched_for: null,
    };
  }

  // ----- One listing -----

  /** Listings by id in any state (missing ones are absent from the map), for the messaging module. */
  async briefs(ids: string[]): Promise<Map<string, ListingBrief>> {
    const valid = [...new Set(ids)].filter(isUuid);
    if (valid.length === 0) return new Map();
    const [listings, images] = await Promise.all([
      this.em.fork().find(Listing, { id: { $in: valid } }, { populate: ['category'] }),
      this.images.imagesOf(valid),
    ]);
    return new Map(
      listings.map((listing) => [
        listing.id,
        {
          id: listing.id,
          title: listing.title,
          sellerId: listing.seller.id,
          type: listing.type,
          status: listing.status,
          categorySlug: listing.category.getEntity().slug as CategorySlug,
          categoryName: listing.category.getEntity().name,
          price: listing.pricePence / 100,
          attributes: listing.attributes,
          image: images.get(listing.id)?.find((image) => image.status === 'ready' && image.url)?.url ?? null,
        },
      ]),
    );
  }

  /** A live listing for anyone; its seller also sees it when it is not live. A view counts once a day per visitor. */
  async detail(id: string, viewer: Viewer, near?: string): Promise<ListingDetail> {
    // Visitors read the replica; a signed-in seller reads their own listing from the primary, so an
    // edit shows at once (as does a listing the replica has not received yet).
    let listing = await this.find(id, 'replica');
    if (viewer.userId && this.prepared.hasReplica() && (!listing || listing.seller.id === viewer.userId)) {
      listing = await this.find(id, 'primary');
    }
    const isOwner = listing?.seller.id === viewer.userId;
    if (!listing || (listing.status !== 'live' && !isOwner)) throw new NotFoundException(LISTING_TEXTS.notFound);
    if (!isOwner && (await this.views.count(listing.id, viewer))) listing.views += 1;
    const place = near ? await this.geocoder.byId(near) : undefined;
    return this.toDetail(listing, viewer.userId, place);
  }

  /** Whether the seller has declared they are 18 or over; the wizard asks before their first listing. */
  sellerDeclaration(seller: User): SellerDeclaration {
    return { over_18_confirmed: seller.overEighteenConfirmedAt != null };
  }

  async create(seller: User, request: ListingRequest): Promise<ListingDetail> {
    // The terms let only adults post: asked once, with the first listing, and kept.
    // The request's own account row, read with its session: no second query.
    const declared = seller.overEighteenConfirmedAt != null;
    if (!declared && request.confirm_over_18 !== true) {
      throw new FieldValidationException({ confirm_over_18: LISTING_TEXTS.overEighteenRequired });
    }
    await this.limits.consume(
      { key: `listing:create:user:${seller.id}`, limit: POSTS_PER_DAY, windowSeconds: 24 * 3600 },
      () => `You have posted ${POSTS_PER_DAY} listings today, the most allowed in one day. Please try again tomorrow.`,
    );
    const fields = await this.validated(request);
    const id = await this.em.transactional(async (tx) => {
      const now = new Date();
      const listing = tx.create(Listing, {
        ...fields,
        seller: seller.id,
        publishedAt: now,
        expiresAt: daysAfter(now, LISTING_LIFETIME_DAYS),
      });
      tx.persist(listing);
      await tx.flush();
      await this.images.attach(tx, seller.id, listing.id, request.images);
      await rememberTitleWords(tx, listing.title);
      if (!declared) await this.standing.confirmOverEighteen(tx, seller.id);
      this.events.publish(tx, 'listing.published', { listingId: listing.id });
      return listing.id;
    });
    return this.ownDetail(id, seller.id);
  }

  async update(seller: User, id: string, request: ListingRequest): Promise<ListingDetail> {
    const fields = await this.validated(request);
    await this.em.transactional(async (tx) => {
      const listing = await this.owned(tx, id, seller.id);
      if (listing.status === 'removed') throw new ForbiddenException('This listing was removed by our team and cannot be changed.');
      const changed = (Object.keys(fields) as Array<keyof typeof fields>).filter(
        (key) => JSON.stringify(listing[key]) !== JSON.stringify(fields[key]),
      );
      tx.assign(listing, fields);
      await this.images.attach(tx, seller.id, listing.id, request.images);
      await rememberTitleWords(tx, listing.title);
      this.events.publish(tx, 'listing.updated', { listingId: id, changed: changed.map(String) });
    });
    return this.ownDetail(id, seller.id);
  }

  /** Marks sold or let, withdraws, or renews (live again for 90 days). */
  async changeStatus(seller: User, id: string, status: 'live' | 'sold' | 'let' | 'withdrawn'): Promise<ListingDetail> {
    await this.em.transactional(async (tx) => {
      const listing = await this.owned(tx, id, seller.id);
      const from = listing.status;
      if (from === 'removed') throw new ForbiddenException('This listing was removed by our team and cannot be changed.');
      if (status === 'sold' && listing.type !== 'sale') throw new BadRequestException('A rental is let, not sold.');
      if (status === 'let' && listing.type !== 'rent') throw new BadRequestException('Only a rental can be marked as let.');
      if (status === from && status !== 'live') return;
      if (status === 'live') {
        // A renewal: live again, for a full term, warned again before it ends.
        const now = new Date();
        listing.publishedAt = now;
        listing.expiresAt = daysAfter(now, LISTING_LIFETIME_DAYS);
        listing.expiryWarnedAt = undefined;
      }
      listing.status = status;
      this.events.publish(tx, 'listing.status-changed', { listingId: id, from, to: status });
    });
    return this.ownDetail(id, seller.id);
  }

  async delete(seller: User, id: string): Promise<void> {
    await this.em.transactional(async (tx) => {
      const listing = await this.owned(tx, id, seller.id);
      await this.images.deleteFor(id, tx);
      tx.remove(listing);
      this.events.publish(tx, 'listing.deleted', { listingId: id, sellerId: seller.id });
    });
  }

  // ----- Saved listings -----

  async saved(userId: string): Promise<SavedListingEntry[]> {
    const rows = await this.em.getConnection().execute<Array<{ listing_id: string; created_at: string }>>(
      `select s.listing_id, s.created_at from saved_listing s join listing l on l.id = s.listing_id
        where s.user_id = ? and l.status = 'live' order by s.created_at desc limit 200`,
      [userId],
    );
    const cards = new Map((await this.cardsByIds(rows.map((r) => r.listing_id))).map((card) => [card.id, card]));
    return rows.flatMap((row) => {
      const listing = cards.get(row.listing_id);
      return listing ? [{ listing_id: row.listing_id, saved_at: new Date(row.created_at).toISOString(), listing }] : [];
    });
  }

  async save(userId: string, listingId: string): Promise<SaveResult> {
    return this.em.transactional(async (tx) => {
      const listing = await tx.findOne(Listing, { id: listingId, status: 'live' }, { lockMode: 3 /* pessimistic write */ });
      if (!listing) throw new NotFoundException(LISTING_TEXTS.notFound);
      if (listing.seller.id === userId) throw new BadRequestException(LISTING_TEXTS.cannotSaveOwn);
      const inserted = await tx
        .getConnection()
        .execute<{ affectedRows?: number }>(
          `insert into saved_listing (user_id, listing_id, created_at) values (?, ?, now()) on conflict do nothing`,
          [userId, listingId],
          'run',
          tx.getTransactionContext(),
        );
      if (inserted.affectedRows === 1) listing.savesCount += 1;
      return { saved: true, saves_count: listing.savesCount };
    });
  }

  async unsave(userId: string, listingId: string): Promise<SaveResult> {
    return this.em.transactional(async (tx) => {
      const listing = await tx.findOne(Listing, { id: listingId }, { lockMode: 3 });
      if (!listing) throw new NotFoundException(LISTING_TEXTS.notFound);
      const removed = await tx.nativeDelete(SavedListing, { user: userId, listing: listingId });
      if (removed === 1) listing.savesCount = Math.max(0, listing.savesCount - 1);
      return { saved: false, saves_count: listing.savesCount };
    });
  }

  /** One listing's brief (see briefs), or null when there is no such listing. */
  async brief(listingId: string): Promise<ListingBrief | null> {
    return (await this.briefs([listingId])).get(listingId) ?? null;
  }

  /** The users who saved the listing (to tell them it changed). */
  async saverIds(listingId: string): Promise<string[]> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<Array<{ user_id: string }>>(`select user_id from saved_listing where listing_id = ?`, [listingId]);
    return rows.map((row) => row.user_id);
  }

  // ----- Helpers -----

  /** A listing with its seller and category; a replica's copy is read in a fork, apart from the request's identity map. */
  private find(id: string, from: ReadFrom = 'primary'): Promise<Listing | null> {
    if (!isUuid(id)) return Promise.resolve(null);
    const em = from === 'replica' ? this.em.fork() : this.em;
    return em.findOne(Listing, { id }, { populate: ['seller', 'category'], connectionType: connectionFor(from) });
  }

  /** The seller's own listing: anyone else's id is simply not found. */
  private async owned(tx: EntityManager, id: string, sellerId: string): Promise<Listing> {
    const listing = isUuid(id) ? await tx.findOne(Listing, { id, seller: sellerId }, { lockMode: 3 }) : null;
    if (!listing) throw new NotFoundException(LISTING_TEXTS.notFound);
    return listing;
  }

  private async ownDetail(id: string, sellerId: string): Promise<ListingDetail> {
    const listing = await this.em.fork().findOneOrFail(Listing, { id }, { populate: ['seller', 'category'] });
    return this.toDetail(listing, sellerId);
  }

  /** The request's fields, checked together (type, category and units agree; the place exists; category fields valid). */
  private async validated(request: ListingRequest) {
    const errors: Record<string, string> = {};
    let category = categoryBySlug(request.category) as (typeof CATEGORIES)[number];
    let rentSubcategory: RentSubcategory | undefined;
    if (request.type === 'rent') {
      // SPEC §4: choosing For Rent puts the listing in Rentals; what is rented is the subcategory.
      category = categoryBySlug('rentals') as (typeof CATEGORIES)[number];
      rentSubcategory = request.subcategory as RentSubcategory | undefined;
      if (!rentSubcategory) errors['subcategory'] = LISTING_TEXTS.selectCategory;
    } else if (!(SALE_CATEGORIES as readonly string[]).includes(category.slug)) {
      errors['category'] = LISTING_TEXTS.invalidCategory;
    }
    const units = request.type === 'rent' ? RENT_PRICE_UNITS : SALE_PRICE_UNITS;
    const priceUnit = (request.price_unit ?? units[0]) as PriceUnit;
    if (!units.includes(priceUnit))
      errors['price_unit'] = `For ${request.type === 'rent' ? 'a rental' : 'a sale'} the price is ${units.join(', ')}`;
    const attributes: Record<string, string | number | boolean> = {};
    for (const field of fieldsFor(category.slug, rentSubcategory)) {
      const value = request.attributes?.[field.key];
      const error = categoryFieldError(field, value);
      if (error) errors[`attributes.${field.key}`] = error;
      else if (value !== undefined && value !== null && value !== '') {
        attributes[field.key] =
          field.kind === 'integer' || field.kind === 'decimal'
            ? Number(value)
            : typeof value === 'string'
              ? value.trim()
              : (value as boolean);
      }
    }
    const from = attributes['available_from'];
    const to = attributes['available_to'];
    if (typeof from === 'string' && typeof to === 'string' && to < from)
      errors['attributes.available_to'] = 'Available to must not be before available from';
    const place = await this.placeOf(request);
    if (!place) errors['location'] = LISTING_TEXTS.unknownPlace;
    if (Object.keys(errors).length > 0) throw new FieldValidationException(errors);
    const where = place as Place;
    return {
      type: request.type,
      category: category.id,
      rentSubcategory,
      title: request.title,
      description: request.description,
      pricePence: Math.round(request.price * 100),
      priceUnit,
      vat: (request.vat ?? 'no-vat') as VatOption,
      locationText: `${where.name}, ${where.region}`,
      placeId: where.id,
      latitude: where.latitude,
      longitude: where.longitude,
      attributes,
    };
  }

  private async placeOf(request: ListingRequest): Promise<Place | undefined> {
    if (request.place_id) return this.geocoder.byId(request.place_id);
    return this.geocoder.resolve(request.location);
  }

  private async cardsByIds(ids: string[]): Promise<ListingCard[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.page({
      ids,
      sort: 'newest',
      limit: ids.length,
      statuses: ['live', 'sold', 'let', 'withdrawn', 'expired', 'removed'],
    });
    return this.cards(rows);
  }

  /** Cards from a page's rows (their images came in the same query). */
  private cards(rows: ListingRow[], near?: { latitude: number; longitude: number }): ListingCard[] {
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      description: row.excerpt,
      price: Number(row.price_pence) / 100,
      price_unit: row.price_unit,
      vat: row.vat,
      type: row.type,
      rent_subcategory: row.rent_subcategory,
      location: row.location_text,
      distance_miles: near && row.distance_m !== null ? Math.round((Number(row.distance_m) / 1609.344) * 10) / 10 : null,
      category_name: row.category_name,
      category_slug: row.category_slug,
      seller_id: row.seller_id,
      seller_name: row.seller_name,
      seller_verified: row.seller_verified,
      images: this.images.fromColumn(row.images ?? []),
      featured: row.featured,
      views: row.views,
      saves_count: row.saves_count,
      status: row.status,
      created_at: new Date(row.published_at).toISOString(),
      expires_at: new Date(row.expires_at).toISOString(),
    }));
  }

  private async toDetail(listing: Listing, viewerId: string | undefined, near?: Place): Promise<ListingDetail> {
    const seller = listing.seller.getEntity();
    const category = listing.category.getEntity();
    const [images, saved] = await Promise.all([
      this.images.imagesOf([listing.id]),
      viewerId ? this.em.fork().count(SavedListing, { user: viewerId, listing: listing.id }) : Promise.resolve(0),
    ]);
    return {
      id: listing.id,
      title: listing.title,
      description: listing.description,
      price: listing.pricePence / 100,
      price_unit: listing.priceUnit,
      vat: listing.vat,
      type: listing.type,
      rent_subcategory: listing.rentSubcategory ?? null,
      location: listing.locationText,
      distance_miles: near ? Math.round(milesBetween(near, listing) * 10) / 10 : null,
      category_name: category.name,
      category_slug: category.slug as CategorySlug,
      seller_id: seller.id,
      seller_name: seller.deletedAt ? 'Unknown User' : seller.fullName,
      seller_verified: Boolean(seller.emailVerifiedAt),
      images: images.get(listing.id) ?? [],
      featured: listing.featured,
      views: listing.views,
      saves_count: listing.savesCount,
      status: listing.status,
      created_at: listing.publishedAt.toISOString(),
      expires_at: listing.expiresAt.toISOString(),
      attributes: listing.attributes,
      seller: {
        id: seller.id,
        name: seller.deletedAt ? 'Unknown User' : seller.fullName,
        avatar_url: seller.avatarUrl ?? null,
        member_since: seller.createdAt.toISOString(),
        verified: Boolean(seller.emailVerifiedAt),
      },
      latitude: listing.latitude,
      longitude: listing.longitude,
      place_id: listing.placeId ?? null,
      saved: saved > 0,
      is_owner: viewerId === seller.id,
    };
  }
}

/** A search by words alone, among live listings: its matches are the listings holding every word. */
function onlyWords(query: ListingQuery): boolean {
  return !narrowed(query) && !query.near;
}

/**
 * A price filter in pence, checked after the conversion: pounds that overflow it (1e308 × 100 is
 * Infinity) or lie beyond any listing's price are refused, not sent to PostgreSQL.
 */
function searchPence(name: 'min_price' | 'max_price', pounds: number | undefined): number | undefined {
  if (pounds === undefined) return undefined;
  const pence = Math.round(pounds * 100);
  if (!Number.isSafeInteger(pence) || pence < 0 || pence > PRICE_MAX_POUNDS * 100) {
    throw new FieldValidationException({ [name]: `${name} must be a number from 0 to ${PRICE_MAX_POUNDS.toLocaleString('en-GB')}` });
  }
  return pence;
}

/** The `<key>_min` / `<key>_max` query parameters of the category's range fields, each within the field's own bounds. */
function attributeRanges(category: CategorySlug | undefined, subcategory: RentSubcategory | undefined, raw: Record<string, unknown>) {
  if (!category) return [];
  const ranges: Array<{ key: string; min?: number; max?: number }> = [];
  const errors: Record<string, string> = {};
  for (const field of fieldsFor(category, subcategory)) {
    if ((field.kind !== 'integer' && field.kind !== 'decimal') || !field.range) continue;
    const range: { key: string; min?: number; max?: number } = { key: field.key };
    for (const bound of ['min', 'max'] as const) {
      const name = `${field.key}_${bound}`;
      const value = raw[name];
      if (value === undefined || value === '') continue;
      const number = Number(value);
      if (typeof value !== 'string' || !Number.isFinite(number)) errors[name] = `${name} must be a number`;
      else if (number < field.min || number > field.max) errors[name] = `${name} must be from ${field.min} to ${field.max}`;
      else range[bound] = number;
    }
    if (range.min !== undefined && range.max !== undefined && range.min > range.max)
      errors[`${field.key}_max`] = `${field.key}_max must not be below ${field.key}_min`;
    if (range.min !== undefined || range.max !== undefined) ranges.push(range);
  }
  if (Object.keys(errors).length > 0) throw new FieldValidationException(errors);
  return ranges;
}

function daysAfter(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3600 * 1000);
}

const emptyPage = (): ListingPage => ({ listings: [], next_cursor: null, total: 0, total_is_lower_bound: false, searched_for: null });
