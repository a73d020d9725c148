import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { ClearAfterWrites } from '../../../common/clear-after-writes.js';
import { ShortLivedCache } from '../../../common/short-lived-cache.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import type { AppConfig } from '../../../config/env.js';
import type { ListingPage } from '../dto/listing.response.js';
import { Review } from '../../reviews/review.entity.js';
import { User } from '../../users/user.entity.js';
import { Listing } from '../listing.entity.js';
import { SavedListing } from '../saved-listing.entity.js';

/** What a search answer is made of: listings, saves, and the reviews behind a seller's rating on cards. */
const SEARCH_SOURCES = [Listing, SavedListing, Review] as const;
/** The seller's facts a card shows (listings.service's card): a change to one of these is a change to the answers. */
const SELLER_FACTS_ON_CARDS: ReadonlySet<string> = new Set<string>([
  'fullName',
  'deletedAt',
  'sellerType',
  'businessVerifiedAt',
  'reviewCount',
  'reviewStarsTotal',
] satisfies Array<keyof User>);

/**
 * Search answers reused for the same query for SEARCH_CACHE_MS: browse's first pages and popular
 * searches repeat all day. Whatever changes a listing, a save, a review or a seller's facts on cards through
 * this process (the seller, staff moderating or verifying a business, the expiry job, a buyer reviewing the
 * seller) clears them when it flushes and again when its
 * transaction commits, so the next search sees the change; other processes see it within
 * SEARCH_CACHE_MS.
 */
@Injectable()
export class SearchAnswers {
  private readonly cache: ShortLivedCache<ListingPage>;
  private readonly clearedListeners: Array<() => void> = [];

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Inject(EntityManager) em: EntityManager) {
    this.cache = new ShortLivedCache<ListingPage>(config.searchCacheMs, 1_000);
    em.getEventManager().registerSubscriber(
      new ClearAfterWrites(
        ({ entity, payload }) =>
          SEARCH_SOURCES.some((source) => entity instanceof source) ||
          (entity instanceof User && Object.keys(payload).some((field) => SELLER_FACTS_ON_CARDS.has(field))),
        () => {
          this.cache.clear();
          for (const listener of this.clearedListeners) listener();
        },
      ),
    );
  }

  get(key: string, load: () => Promise<ListingPage>): Promise<ListingPage> {
    return this.cache.get(key, load);
  }

  /** Calls `listener` whenever the answers are cleared: what was rendered from them (visitors' pages) goes too. */
  onCleared(listener: () => void): void {
    this.clearedListeners.push(listener);
  }
}
