import type { Ref } from '@mikro-orm/core';
import { Check, Entity, Index, ManyToOne, PrimaryKey, Property } from '@mikro-orm/decorators/legacy';
import { randomBytes, randomUUID } from 'node:crypto';
import type { AlertFrequency } from '../../contracts/saved-searches.js';
import type { StoredSearchQuery } from '../listings/listing-search/search-query.js';
import { Listing } from '../listings/listing.entity.js';
import { User } from '../users/user.entity.js';

/**
 * A search a user saved, with how they hear about it. Beside the query it keeps what prunes it when a
 * listing is matched against every saved search (SearchPercolator): its prune keys and bounds, worked
 * out once when it is saved.
 */
@Entity({ tableName: 'saved_search' })
@Index({ name: 'saved_search_user_index', properties: ['user', 'createdAt'] })
@Index({
  name: 'saved_search_prune_index',
  expression: `create index "saved_search_prune_index" on "saved_search" using gin ("prune_keys") where "paused_at" is null`,
})
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

  /** Any of these among a listing's keys makes the search a candidate (SearchPercolator). */
  @Property({ type: 'text[]' })
  pruneKeys!: string[];

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
 * The `mail_batch` of a match recorded while its search sent no e-mail (frequency "no e-mails"): no
 * e-mail ever carries it, so turning e-mails back on mails only what matches from then on.
 */
export const NOT_MAILED = '00000000-0000-0000-0000-000000000000';

/** One thing a saved search was told about: a listing, new to it or cheaper (once each). */
@Entity({ tableName: 'saved_search_match' })
@Index({ name: 'saved_search_match_listing_index', properties: ['listing'] })
@Index({
  name: 'saved_search_match_unmailed_index',
  expression: `create index "saved_search_match_unmailed_index" on "saved_search_match" ("saved_search_id", "matched_at") where "mail_batch" is null`,
})
@Index({
  name: 'saved_search_match_batch_index',
  expression: `create index "saved_search_match_batch_index" on "saved_search_match" ("mail_batch") where "mail_batch" is not null`,
})
export class SavedSearchMatch {
  @ManyToOne(() => SavedSearch, { ref: true, primary: true, deleteRule: 'cascade' })
  savedSearch!: Ref<SavedSearch>;

  @ManyToOne(() => Listing, { ref: true, primary: true, deleteRule: 'cascade' })
  listing!: Ref<Listing>;

  /** 'new', or 'drop:<price in pence>' for a price drop to that price. */
  @PrimaryKey({ type: 'string', length: 40 })
  occasion!: string;

  @Property({ type: 'bigint' })
  pricePence!: string;

  @Property({ type: 'datetime' })
  matchedAt: Date = new Date();

  /** The e-mail (instant or digest) it went into; NOT_MAILED when its search sent no e-mail then. */
  @Property({ type: 'uuid', nullable: true })
  mailBatch?: string | null;
}
