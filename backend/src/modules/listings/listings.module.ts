import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { CategoriesModule } from '../categories/categories.module.js';
import { ImagesModule } from '../images/images.module.js';
import { ImagesService } from '../images/images.service.js';
import { EntityManager } from '@mikro-orm/postgresql';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/env.js';
import { Geocoder, GeonamesGeocoder } from '../../infra/geocoding/geocoder.js';
import { PostcodesIoGeocoder } from '../../infra/geocoding/postcodes-io-geocoder.js';
import { UkGeocoder } from '../../infra/geocoding/uk-geocoder.js';
import { PostcodeLookupPurgeJob } from '../../infra/geocoding/postcode-lookup-purge.job.js';
import { RateLimiter } from '../../infra/rate-limit/rate-limiter.js';
import { ListingImages } from './listing-images.js';
import { ListingModeration } from './listing-moderation.js';
import { ListingAppeals } from './listing-appeals.js';
import { ListingAppeal } from './listing-appeal.entity.js';
import { ListingViews } from './listing-views.js';
import { ListingCards } from './listing-cards.js';
import { ListingMatches } from './listing-search/listing-matches.js';
import { ListingSearch } from './listing-search/listing-search.js';
import { SearchPlanner } from './listing-search/planner.js';
import { SearchAnswers } from './listing-search/search-answers.js';
import { Spelling } from './listing-search/spelling.js';
import { ListingWords } from './listing-search/words.js';
import { Listing } from './listing.entity.js';
import { ListingsLifecycle } from './listings-lifecycle.js';
import { ListingsController, PlacesController, SellerListingsController } from './listings.controller.js';
import { ListingsService } from './listings.service.js';
import { SavedListing } from './saved-listing.entity.js';
import { WantedMatches } from './wanted-matches.js';

/** Listings: posting, browse and search, detail, saved listings, and their life cycle. */
@Module({
  imports: [ormEntities([Listing, SavedListing, ListingAppeal]), CategoriesModule, ImagesModule],
  controllers: [ListingsController, SellerListingsController, PlacesController],
  providers: [
    ListingsService,
    ListingSearch,
    ListingMatches,
    SearchPlanner,
    Spelling,
    ListingCards,
    ListingViews,
    ListingWords,
    ListingsLifecycle,
    ListingModeration,
    ListingAppeals,
    SearchAnswers,
    WantedMatches,
    PostcodeLookupPurgeJob,
    {
      provide: Geocoder,
      inject: [EntityManager, APP_CONFIG, RateLimiter],
      useFactory: (em: EntityManager, config: AppConfig, limits: RateLimiter) =>
        new UkGeocoder(new GeonamesGeocoder(), new PostcodesIoGeocoder(em, config.postcodesApiUrl, undefined, limits)),
    },
    { provide: ListingImages, useExisting: ImagesService },
  ],
  exports: [ListingsService, ListingModeration, ListingMatches],
})
export class ListingsModule {}
