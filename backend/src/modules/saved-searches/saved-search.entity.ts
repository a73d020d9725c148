import type { Ref } from '@mikro-orm/core';
import { Check, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AlertFrequency } from '../../contracts/saved-searches.js';
import type { StoredSearchQuery } from '../listings/listing-search/search-query.js';
import { Listing } from '../listings/listing.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A search a user saved, with how they hear about it. Beside the query it keeps every filter in columns
 * (search-percolator's MatchColumns), worked out once when it is saved; a trigger copies what prunes it
 * into saved_search_prune, where a new listing finds its candidates by index only (SavedSearchMatcher).
 */
@Entity({ tableName: 'saved_search' })
@Index({ name: 'saved_search_user_index', properties: ['user', 'createdAt'] })
@Index({
  name: 'saved_search_unprepared_index',
  expression: `create index "saved_search_unprepared_index" on "saved_search" ("id") where "match_version" is null`,
})
@Index({
  name: 'saved_search_digest_index',
  expression: `create index "saved_search_digest_index" on "saved_search" ("frequency", "digest_due_at") where "paused_at" is null`,
})
@Check({ name: 'saved_search_frequency_check', expression: `frequency in ('instant', 'daily', 'weekly', 'off')` })
export class SavedSearch {
  @PrimaryKey({ type: 'uuid' })
  id: string = randomUUID();

  @ManyToOne(() => User, { ref: true, deleteRule: 'cascade' })
  user!: Ref<User>;

  @Property({ type: 'string', length: 120 })
  name!: string;

  /** The query's stored form (searchQueryToJson). */
  @Property({ type: 'json' })
  query!: StoredSearchQuery;

  @Property({ type: 'text' })
  frequency: AlertFrequency = 'instant';

  @Property({ type: 'boolean', default: true })
  priceDrops: boolean = true;

  @Property({ type: 'datetime', nullable: true })
  pausedAt?: Date | null;

  /** In the one-click unsubscribe link of its e-mails: stops this search's e-mails and nothing else. */
  @Property({ type: 'string', length: 64, unique: true })
  unsubscribeToken: string = randomBytes(32).toString('base64url');

  /** Matches after this count as new in the profile's list. */
  @Property({ type: 'datetime' })
  lastSeenAt: Date = new Date();

  /** Its last instant e-mail: the next waits 15 minutes from it. */
  @Property({ type: 'datetime', nullable: true })
  lastMailedAt?: Date | null;

  /** The digest (its 07:00) it was last gathered into: a digest run resumes with the searches before it. */
  @Property({ type: 'datetime', nullable: true })
  digestDueAt?: Date | null;

  /** Its short number, by which matches (saved_search_hit) and prune rows name it; never reused. */
  @Property({ type: 'integer', unique: 'saved_search_number_unique', autoincrement: true, lazy: true, hidden: true })
  number?: number;

  /** The last match (saved_search_hit id) gathered into one of its e-mails, or passed over while its e-mails were off. */
  @Property({ type: 'bigint', default: 0 })
  mailedThrough: string = '0';

  @Property({ type: 'integer', nullable: true })
  categoryId?: number | null;

  @Property({ type: 'text', nullable: true })
  listingType?: string | null;

  @Property({ type: 'bigint', nullable: true })
  minPricePence?: string | null;

  @Property({ type: 'bigint', nullable: true })
  maxPricePence?: string | null;

  /** The grid squares of its radius, when it has one with few enough squares. */
  @Property({ type: 'integer[]', nullable: true })
  cells?: number[] | null;

  /** Words every match contains (as full text stems them), when the text says so. */
  @Property({ type: 'text[]', nullable: true })
  lexemes?: string[] | null;

  // The rest of its filters, for confirming a candidate in SQL (search-percolator's MatchColumns).

  /** MATCH_COLUMNS_VERSION when the columns below were worked out; null: not yet (no listing reaches it until then). */
  @Property({ type: 'integer', nullable: true })
  matchVersion?: number | null;

  @Property({ type: 'text', nullable: true })
  rentSubcategory?: string | null;

  @Property({ type: 'text', nullable: true })
  priceUnit?: string | null;

  @Property({ type: 'bigint', nullable: true })
  unitMinPricePence?: string | null;

  @Property({ type: 'bigint', nullable: true })
  unitMaxPricePence?: string | null;

  @Property({ type: 'double', nullable: true })
  nearLatitude?: number | null;

  @Property({ type: 'double', nullable: true })
  nearLongitude?: number | null;

  @Property({ type: 'double', nullable: true })
  nearCosine?: number | null;

  @Property({ type: 'double', nullable: true })
  radiusMetres?: number | null;

  @Property({ type: 'double', nullable: true })
  boxSouth?: number | null;

  @Property({ type: 'double', nullable: true })
  boxNorth?: number | null;

  @Property({ type: 'double', nullable: true })
  boxWest?: number | null;

  @Property({ type: 'double', nullable: true })
  boxEast?: number | null;

  @Property({ type: 'text', nullable: true })
  words?: string | null;

  @Property({ type: 'tsquery', generated: `(websearch_to_tsquery('english', words)) stored`, lazy: true, hidden: true, nullable: true })
  wordsQuery?: string;

  @Property({ type: 'boolean', default: false })
  verifiedOnly: boolean = false;

  @Property({ type: 'boolean', default: false })
  featuredOnly: boolean = false;

  @Property({ type: 'integer', nullable: true })
  postedWithinDays?: number | null;

  @Property({ type: 'json', nullable: true })
  attributeRanges?: unknown[] | null;

  @Property({ type: 'json', nullable: true })
  attributeMatches?: unknown[] | null;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();

  @Property({ type: 'datetime', onUpdate: () => new Date() })
  updatedAt: Date = new Date();
}

/**
 * What one matching told searches about a listing: new to them, or its price dropped ("drop:<pence>"),
 * the searches named by their numbers. One row a listing and occasion, however many searches it
 * reached: each (search, listing, occasion) is in at most one row (SavedSearchMatcher looks first).
 */
@Entity({ tableName: 'saved_search_hit' })
@Index({ name: 'saved_search_hit_listing_index', properties: ['listing'] })
@Index({
  name: 'saved_search_hit_searches_index',
  expression: `create index "saved_search_hit_searches_index" on "saved_search_hit" using gin ("searches")`,
})
export class SavedSearchHit {
  @PrimaryKey({ type: 'bigint', autoincrement: true })
  id!: string;

  @ManyToOne(() => Listing, { ref: true, deleteRule: 'cascade' })
  listing!: Ref<Listing>;

  /** 'new', or 'drop:<price in pence>' for a price drop to that price. */
  @Property({ type: 'string', length: 40 })
  occasion!: string;

  @Property({ type: 'bigint' })
  pricePence!: string;

  @Property({ type: 'datetime' })
  matchedAt: Date = new Date();

  /** The numbers of the searches told. */
  @Property({ type: 'integer[]' })
  searches!: number[];
}

/**
 * A saved search's prune rows, kept by a trigger on saved_search (one per key; none while it is paused):
 * its keys (SearchPercolator's prune keys) and the filters a listing is confirmed by without reading the
 * search (its whole test when `exact`), all in one covering index, so candidates are found and mostly
 * confirmed by index only.
 */
@Entity({ tableName: 'saved_search_prune' })
@Index({
  name: 'saved_search_prune_key_index',
  expression: `create index "saved_search_prune_key_index" on "saved_search_prune" ("key") include ("number", "user_id", "match_version", "exact",
    "category_id", "listing_type", "min_price_pence", "max_price_pence", "box_south", "box_north", "box_west", "box_east", "near_latitude",
    "near_cosine", "near_longitude", "radius_metres", "lexemes")`,
})
export class SavedSearchPrune {
  @PrimaryKey({ type: 'integer' })
  number!: number;

  @PrimaryKey({ type: 'bigint' })
  key!: string;

  @Property({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'integer' })
  matchVersion!: number;

  /** Its filters are all below: a listing passing them matches it. */
  @Property({ type: 'boolean' })
  exact!: boolean;

  @Property({ type: 'integer', nullable: true })
  categoryId?: number | null;

  @Property({ type: 'text', nullable: true })
  listingType?: string | null;

  @Property({ type: 'bigint', nullable: true })
  minPricePence?: string | null;

  @Property({ type: 'bigint', nullable: true })
  maxPricePence?: string | null;

  @Property({ type: 'double', nullable: true })
  boxSouth?: number | null;

  @Property({ type: 'double', nullable: true })
  boxNorth?: number | null;

  @Property({ type: 'double', nullable: true })
  boxWest?: number | null;

  @Property({ type: 'double', nullable: true })
  boxEast?: number | null;

  @Property({ type: 'double', nullable: true })
  nearLatitude?: number | null;

  @Property({ type: 'double', nullable: true })
  nearCosine?: number | null;

  @Property({ type: 'double', nullable: true })
  nearLongitude?: number | null;

  @Property({ type: 'double', nullable: true })
  radiusMetres?: number | null;

  @Property({ type: 'text[]', nullable: true })
  lexemes?: string[] | null;
}

/**
 * One search's part of an alert e-mail (an instant batch or a user's digest): its matches after
 * `afterHit` up to `throughHit` (saved_search_hit ids).
 */
@Entity({ tableName: 'saved_search_mail_part' })
@Index({ name: 'saved_search_mail_part_search_index', properties: ['savedSearch'] })
export class SavedSearchMailPart {
  @PrimaryKey({ type: 'uuid' })
  batchId!: string;

  @ManyToOne(() => SavedSearch, { ref: true, primary: true, deleteRule: 'cascade' })
  savedSearch!: Ref<SavedSearch>;

  @Property({ type: 'bigint' })
  afterHit!: string;

  @Property({ type: 'bigint' })
  throughHit!: string;
}
