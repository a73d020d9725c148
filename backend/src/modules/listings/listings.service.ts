import { shownRating } from '../../contracts/reviews.js';
import { EntityManager, LockMode } from '@mikro-orm/postgresql';
import { BadRequestException, ConflictException, ForbiddenException, Inject, Injectable, NotFoundException, Logger } from '@nestjs/common';
import { FieldValidationException, TooManyRequestsException } from '../../common/errors.js';
import { clientKey } from '../../common/api-rate-limit.js';
import { CATEGORIES, categoryBySlug, type CategorySlug } from '../../contracts/categories.js';
import {
  APPEAL_TEXTS,
  categoryFieldError,
  fieldsFor,
  LISTING_LIFETIME_DAYS,
  LISTING_TEXTS,
  type ListingStatus,
  type ListingType,
  PAGE_SIZE,
  type PriceUnit,
  priceUnitsFor,
  isEmptyFieldValue,
  type AttributeValue,
  type RentSubcategory,
  SALE_CATEGORIES,
  storedFieldValue,
  type VatOption,
  visibleAttributes,
} from '../../contracts/listings.js';
import { Geocoder, milesBetween, type Place } from '../../infra/geocoding/geocoder.js';
import { PostcodeLookupUnavailable } from '../../infra/geocoding/postcodes-io-geocoder.js';
import { canonicalPostcode, roundedCoordinate } from '../../contracts/postcodes.js';
import { DomainEvents } from '../../infra/queue/domain-events.service.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { AccountStanding } from '../users/account-standing.js';
import { User } from '../users/user.entity.js';
import type { ListingRequest } from './dto/listing.request.js';
import type {
  FeaturedListings,
  ListingCard,
  ListingDetail,
  ListingPage,
  PostedListing,
  MakesInUse,
  OwnListingPage,
  SavedListingEntry,
  SaveResult,
  SellerDeclaration,
} from './dto/listing.response.js';
import { ListingCards, pricePerHead } from './listing-cards.js';
import { ListingImages } from './listing-images.js';
import { rememberTitleWords } from './listing-search/spelling.js';
import {
  DEFAULT_RADIUS_MILES,
  parseSearchQuery,
  searchQueryFromJson,
  searchQueryToJson,
  type StoredSearchQuery,
} from './listing-search/search-query.js';
import { WantedMatches } from './wanted-matches.js';
import { ListingAppeals } from './listing-appeals.js';
import { Listing } from './listing.entity.js';
import { SavedListing } from './saved-listing.entity.js';
import { ListingViews, type Viewer } from './listing-views.js';
import { PreparedQueries } from '../../infra/database/prepared-queries.js';
import { connectionFor, ReplicaReads, type ReadFrom } from '../../infra/database/replica-reads.js';
import { SELLER_TEXTS } from '../../contracts/trust.js';
import { setSellerDetails } from '../users/seller-details.js';
import { isUuid } from '../../common/uuid.js';

/** Listings one seller may post in a day. */
export const POSTS_PER_DAY = 20;

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
  pricePence: number;
  priceUnit: PriceUnit;
  vat: VatOption;
  attributes: Record<string, AttributeValue>;
  /** The main photo's URL once ready. */
  image: string | null;
}

/** Makes the make filter offers at most, and how long the list is kept. */
const MAKES_LISTED = 200;
const MAKES_TTL_MS = 10 * 60 * 1000;

/** The most a listing page waits on the postcode service for its `?near=` place's distance (a cached place needs no wait). */
export const NEAR_TIMEOUT_MS = 500;

/** Why a listing page shows no distance from the place searched from. */
export const DISTANCE_NOTES = {
  serviceDown: 'Distance not shown: the postcode service is not answering just now.',
  tooManyLookups: 'Distance not shown: too many postcode lookups from your connection; try again later.',
  unknownPlace: 'Distance not shown: we could not find the place searched from.',
} as const;

@Injectable()
export class ListingsService {
  private readonly logger = new Logger('Listings');
  private makes: { answer: MakesInUse; until: number } | undefined;
  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(Geocoder) private readonly geocoder: Geocoder,
    @Inject(ListingImages) private readonly images: ListingImages,
    @Inject(DomainEvents) private readonly events: DomainEvents,
    @Inject(RateLimiter) private readonly limits: RateLimiter,
    @Inject(ListingViews) private readonly views: ListingViews,
    @Inject(ListingCards) private readonly cards: ListingCards,
    @Inject(AccountStanding) private readonly standing: AccountStanding,
    @Inject(ReplicaReads) private readonly replica: ReplicaReads,
    @Inject(PreparedQueries) private readonly prepared: PreparedQueries,
    @Inject(WantedMatches) private readonly wanted: WantedMatches,
    @Inject(ListingAppeals) private readonly appeals: ListingAppeals,
  ) {}

  // ----- Cards: featured, a seller's listings -----

  /** Staff's featured listings; while there are none, the newest live listings with photos. */
  async featured(limit: number): Promise<FeaturedListings> {
    const featured = await this.cards.list({ featuredOnly: true, sort: 'newest', limit }, 'replica');
    if (featured.rows.length > 0) return { kind: 'featured', listings: this.cards.cards(featured.rows.slice(0, limit)) };
    const newest = await this.cards.list({ withImagesOnly: true, sort: 'newest', limit }, 'replica');
    return { kind: 'newest', listings: this.cards.cards(newest.rows.slice(0, limit)) };
  }

  /** A seller's live listings, for their public page (only when they show them); the seller's own look reads the primary. */
  async sellerListings(sellerId: string, viewerId: string | undefined, cursor?: string): Promise<ListingPage> {
    const from: ReadFrom = sellerId === viewerId ? 'primary' : 'replica';
    const seller = isUuid(sellerId)
      ? await this.replica.read(from, (at) =>
          this.em.fork().findOne(User, { id: sellerId, deletedAt: null }, { connectionType: connectionFor(at) }),
        )
      : null;
    if (!seller || (!seller.profileVisible && seller.id !== viewerId)) throw new NotFoundException('Profile not found');
    if (!seller.listingsVisible && seller.id !== viewerId) return emptyPage();
    return this.sellerPage(sellerId, ['live'], cursor, from);
  }

  /** The seller's own listings in every state, for My Listings; a hidden one carries its case (one query for the page). */
  async mine(sellerId: string, cursor?: string): Promise<OwnListingPage> {
    const page = await this.sellerPage(sellerId, ['live', 'sold', 'let', 'withdrawn', 'expired', 'removed'], cursor);
    const hidden = page.listings.filter((listing) => listing.status === 'removed').map((listing) => listing.id);
    const cases = await this.appeals.ofOwnerListings(sellerId, hidden);
    return { ...page, listings: page.listings.map((listing) => ({ ...listing, moderation: cases.get(listing.id) ?? null })) };
  }

  /** One page of a seller's listings in these states, newest first. */
  private async sellerPage(sellerId: string, statuses: ListingStatus[], cursor?: string, from: ReadFrom = 'primary'): Promise<ListingPage> {
    const page = await this.cards.list({ sellerId, statuses, sort: 'newest', limit: PAGE_SIZE, cursor }, from);
    return {
      listings: this.cards.cards(page.rows.slice(0, PAGE_SIZE)),
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
          pricePence: listing.pricePence,
          priceUnit: listing.priceUnit,
          vat: listing.vat,
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
    if (viewer.userId && this.replica.configured && (!listing || listing.seller.id === viewer.userId)) {
      listing = await this.find(id, 'primary');
    }
    const isOwner = listing?.seller.id === viewer.userId;
    if (!listing || (listing.status !== 'live' && !isOwner)) throw new NotFoundException(LISTING_TEXTS.notFound);
    if (!isOwner && (await this.views.count(listing.id, viewer))) listing.views += 1;
    const { place, note } = near ? await this.placeNear(near, viewer) : { place: undefined, note: null };
    return this.toDetail(listing, viewer.userId, place, note);
  }

  /**
   * The place a listing's distance is measured from (`?near=`): from the cache at once, else asked
   * of the postcode service for at most NEAR_TIMEOUT_MS, within the visitor's lookup limit. A
   * distance is a nicety: a service that is slow or down, or a limit reached, leaves it out with a
   * note saying why, never the listing; any other failure is a failure.
   */
  private async placeNear(near: string, viewer: Viewer): Promise<{ place: Place | undefined; note: string | null }> {
    try {
      const place = await this.geocoder.byId(near, { client: clientKey(viewer.ip), timeoutMs: NEAR_TIMEOUT_MS });
      return { place, note: place ? null : DISTANCE_NOTES.unknownPlace };
    } catch (error) {
      if (error instanceof PostcodeLookupUnavailable) return { place: undefined, note: DISTANCE_NOTES.serviceDown };
      if (error instanceof TooManyRequestsException) return { place: undefined, note: DISTANCE_NOTES.tooManyLookups };
      throw error;
    }
  }

  /**
   * The makes of live machinery listings (for sale or hire), most listed first, up to MAKES_LISTED:
   * the make filter's choices. Read from the replica and kept MAKES_TTL_MS, since it changes slowly
   * and counts a category's worth of listings.
   */
  async makesInUse(): Promise<MakesInUse> {
    if (this.makes && this.makes.until > Date.now()) return this.makes.answer;
    const rows = await this.prepared.all<{ make: string }>(
      `select l.attributes->>'make' as make from listing l
        where l.status = 'live' and (l.category_id = ? or l.rent_subcategory = 'equipment') and l.attributes->>'make' is not null
        group by 1 order by count(*) desc, 1 limit ${MAKES_LISTED}`,
      [categoryBySlug('equipment')?.id],
      'replica',
    );
    const answer = { makes: rows.map((row) => row.make) };
    this.makes = { answer, until: Date.now() + MAKES_TTL_MS };
    return answer;
  }

  /** Whether the seller has declared they are 18 or over; the wizard asks before their first listing. */
  sellerDeclaration(seller: User): SellerDeclaration {
    return { over_18_confirmed: seller.overEighteenConfirmedAt != null, seller_type: seller.sellerType ?? null };
  }

  async create(seller: User, request: ListingRequest): Promise<PostedListing> {
    // The terms let only adults post: asked once, with the first listing, and kept.
    // The request's own account row, read with its session: no second query.
    const declared = seller.overEighteenConfirmedAt != null;
    if (!declared && request.confirm_over_18 !== true) {
      throw new FieldValidationException({ confirm_over_18: LISTING_TEXTS.overEighteenRequired });
    }
    // Private or trade is asked with the first listing too (issue 23 §2): buyers' rights depend on it.
    const typed = seller.sellerType != null;
    if (!typed && !request.seller_type) throw new FieldValidationException({ seller_type: SELLER_TEXTS.chooseType });
    if (!typed && request.seller_type === 'trade' && !request.business_name)
      throw new FieldValidationException({ business_name: SELLER_TEXTS.businessNameRequired });
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
      if (!typed)
        setSellerDetails(await tx.findOneOrFail(User, { id: seller.id }), {
          seller_type: request.seller_type!,
          business_name: request.business_name,
        });
      this.events.publish(tx, 'listing.published', { listingId: listing.id });
      return listing.id;
    });
    // The wizard's success screen says how many buyers want this; their owners are told by a job (WantedMatches.tell).
    // The listing is live by now: a failed count says none rather than a 500 the seller would post again after.
    const [detail, wantedBy] = await Promise.all([
      this.ownDetail(id, seller.id),
      this.wanted.wantedAdsFor(id).catch((error: unknown) => {
        this.logger.warn(`Wanted ads for listing ${id} not counted: ${error instanceof Error ? error.message : String(error)}`);
        return [];
      }),
    ]);
    return { ...detail, wanted_by: wantedBy.length };
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
      // Staff hid it: the evidence stays until they close the case (issue 23 §5).
      if (listing.status === 'removed' && !listing.removalClosedAt) throw new ConflictException(APPEAL_TEXTS.caseOpen);
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
      const listing = await tx.findOne(Listing, { id: listingId, status: 'live' }, { lockMode: LockMode.PESSIMISTIC_WRITE });
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
      const listing = await tx.findOne(Listing, { id: listingId }, { lockMode: LockMode.PESSIMISTIC_WRITE });
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
    return this.replica.read(from, (at) =>
      em.findOne(Listing, { id }, { populate: ['seller', 'category'], connectionType: connectionFor(at) }),
    );
  }

  /** The seller's own listing: anyone else's id is simply not found. */
  private async owned(tx: EntityManager, id: string, sellerId: string): Promise<Listing> {
    const listing = isUuid(id) ? await tx.findOne(Listing, { id, seller: sellerId }, { lockMode: LockMode.PESSIMISTIC_WRITE }) : null;
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
    const units = priceUnitsFor(request.type, rentSubcategory ?? category.slug);
    const priceUnit = (request.price_unit ?? units[0]) as PriceUnit;
    if (!units.includes(priceUnit)) {
      const what = `${request.type === 'rent' ? 'a rental' : 'a sale'} in ${categoryBySlug(rentSubcategory ?? category.slug)?.name}`;
      errors['price_unit'] = `For ${what} the price is ${units.join(', ')}`;
    }
    const attributes: Record<string, AttributeValue> = {};
    const given = request.attributes ?? {};
    for (const field of fieldsFor(category.slug, rentSubcategory)) {
      const value = given[field.key];
      const error = categoryFieldError(field, value, given);
      if (error) errors[`attributes.${field.key}`] = error;
      else if (!isEmptyFieldValue(value)) attributes[field.key] = storedFieldValue(field, value);
    }
    const from = attributes['available_from'];
    const to = attributes['available_to'];
    if (typeof from === 'string' && typeof to === 'string' && to < from)
      errors['attributes.available_to'] = 'Available to must not be before available from';
    const place = await this.placeOf(request);
    if (!place) errors['location'] = unknownPlaceText(request.place_id ?? request.location);
    const wantedSearch = request.type === 'wanted' && place ? wantedSearchOf(request, category.slug, priceUnit, place, errors) : undefined;
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
      // A postcode is the seller's address, near enough: visitors get its outcode and its place,
      // and coordinates rounded to about a kilometre (postcodes.ts).
      locationText: where.outcode ? `${where.name} (${where.outcode}), ${where.region}` : `${where.name}, ${where.region}`,
      placeId: where.outcode ?? where.id,
      latitude: roundedCoordinate(where.latitude),
      longitude: roundedCoordinate(where.longitude),
      attributes,
      wantedSearch,
    };
  }

  private async placeOf(request: ListingRequest): Promise<Place | undefined> {
    if (request.place_id) return this.geocoder.byId(request.place_id);
    return this.geocoder.resolve(request.location);
  }

  private async cardsByIds(ids: string[]): Promise<ListingCard[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.cards.list(
      { ids, sort: 'newest', limit: ids.length, statuses: ['live', 'sold', 'let', 'withdrawn', 'expired', 'removed'] },
      'primary',
    );
    return this.cards.cards(rows);
  }

  private async toDetail(
    listing: Listing,
    viewerId: string | undefined,
    near?: Place,
    distanceNote: string | null = null,
  ): Promise<ListingDetail> {
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
      price_per_head: pricePerHead(listing.pricePence, listing.priceUnit, listing.attributes),
      type: listing.type,
      rent_subcategory: listing.rentSubcategory ?? null,
      location: listing.locationText,
      distance_miles: near ? Math.round(milesBetween(near, listing) * 10) / 10 : null,
      distance_note: distanceNote,
      category_name: category.name,
      category_slug: category.slug as CategorySlug,
      seller_id: seller.id,
      seller_name: seller.deletedAt ? 'Unknown User' : seller.fullName,
      seller_verified: Boolean(seller.businessVerifiedAt),
      seller_type: seller.sellerType ?? null,
      seller_rating: seller.deletedAt ? null : shownRating(seller.reviewCount, seller.reviewStarsTotal),
      images: images.get(listing.id) ?? [],
      featured: listing.featured,
      views: listing.views,
      saves_count: listing.savesCount,
      status: listing.status,
      created_at: listing.publishedAt.toISOString(),
      expires_at: listing.expiresAt.toISOString(),
      // Others see what each field's visibility allows (no full holding number, ear tags or serial).
      attributes:
        viewerId === seller.id
          ? listing.attributes
          : visibleAttributes(fieldsFor(category.slug as CategorySlug, listing.rentSubcategory), listing.attributes),
      ...wantedOf(listing),
      seller: {
        id: seller.id,
        name: seller.deletedAt ? 'Unknown User' : seller.fullName,
        avatar_url: seller.avatarUrl ?? null,
        member_since: seller.createdAt.toISOString(),
        verified: Boolean(seller.businessVerifiedAt),
        seller_type: seller.sellerType ?? null,
        business_name: seller.sellerType === 'trade' ? (seller.businessName ?? null) : null,
        business_verified_at: seller.businessVerifiedAt?.toISOString() ?? null,
      },
      latitude: listing.latitude,
      longitude: listing.longitude,
      place_id: listing.placeId ?? null,
      saved: saved > 0,
      is_owner: viewerId === seller.id,
    };
  }
}

/**
 * A wanted ad's search: its category, up to its price in its unit, within its radius of its place, and the
 * ranges its buyer gave, checked as a browse URL's are (parseSearchQuery), so a wanted ad asks
 * only what browse can. Its problems are added to `errors`, by the request's field names.
 */
/** A wanted ad's range: a category field's lower or upper bound, as browse names them (`age_months_min`). */
const RANGE_PARAMETER = /^[a-z][a-z0-9_]*_(?:min|max)$/;

function wantedSearchOf(
  request: ListingRequest,
  category: CategorySlug,
  priceUnit: PriceUnit,
  place: Place,
  errors: Record<string, string>,
): StoredSearchQuery | undefined {
  const ranges = Object.entries(request.wanted_ranges ?? {}).map(([name, value]) => [name, String(value)]);
  // Only ranges: any other browse parameter here (words, a choice, another place) would ask what the ad does not say.
  const notRanges = ranges.filter(([name]) => !RANGE_PARAMETER.test(name ?? ''));
  for (const [name] of notRanges) errors[`wanted_ranges.${name}`] = LISTING_TEXTS.wantedRangeOnly(name ?? '');
  if (notRanges.length > 0) return undefined;
  const parsed = parseSearchQuery({
    ...Object.fromEntries(ranges),
    category,
    type: 'sale',
    max_price: String(request.price),
    // "Up to £120 per head" is compared per head: a lot priced in total counts by its head count.
    price_unit: priceUnit,
    location: place.outcode ?? place.id,
    radius: String(request.wanted_radius ?? DEFAULT_RADIUS_MILES),
  });
  if ('errors' in parsed) {
    for (const [name, message] of Object.entries(parsed.errors)) {
      if (name === 'radius') errors['wanted_radius'] = message.replace(/^radius/, 'wanted_radius');
      else if (name !== 'max_price') errors[`wanted_ranges.${name}`] = message;
    }
    return undefined;
  }
  return searchQueryToJson(parsed.query);
}

/** Why a listing's location names no place: a postcode that does not exist, or a name not in the list. */
function unknownPlaceText(typed: string): string {
  const postcode = canonicalPostcode(typed);
  return postcode ? LISTING_TEXTS.unknownPostcode(postcode) : LISTING_TEXTS.unknownPlace;
}

/** A wanted ad's ranges and radius as its detail shows them; nulls for a listing for sale or rent. */
function wantedOf(listing: Listing): { wanted_ranges: Record<string, number> | null; wanted_radius: number | null } {
  const stored = listing.wantedSearch ? searchQueryFromJson(listing.wantedSearch) : undefined;
  if (!stored || 'errors' in stored) return { wanted_ranges: null, wanted_radius: null };
  const ranges: Record<string, number> = {};
  for (const range of stored.query.attributeRanges) {
    if (range.min !== undefined) ranges[`${range.key}_min`] = range.min;
    if (range.max !== undefined) ranges[`${range.key}_max`] = range.max;
  }
  return { wanted_ranges: ranges, wanted_radius: stored.query.radiusMiles ?? null };
}

function daysAfter(date: Date, days: number): Date {
  return new Date(date.getTime() + days * 24 * 3600 * 1000);
}

const emptyPage = (): ListingPage => ({ listings: [], next_cursor: null, total: 0, total_is_lower_bound: false, searched_for: null });
