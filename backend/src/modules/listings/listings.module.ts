import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { CategoriesModule } from '../categories/categories.module.js';
import { Geocoder, GeonamesGeocoder } from '../../infra/geocoding/geocoder.js';
import { ListingImages } from './listing-images.js';
import { ListingViews } from './listing-views.js';
import { Listing } from './listing.entity.js';
import { ListingsLifecycle } from './listings-lifecycle.js';
import { ListingsController, PlacesController, SellerListingsController } from './listings.controller.js';
import { ListingsService } from './listings.service.js';
import { SavedListing } from './saved-listing.entity.js';

/** Listings: posting, browse and search, detail, saved listings, and their life cycle. */
@Module({
  imports: [ormEntities([Listing, SavedListing]), CategoriesModule],
  controllers: [ListingsController, SellerListingsController, PlacesController],
  providers: [ListingsService, ListingViews, ListingsLifecycle, { provide: Geocoder, useClass: GeonamesGeocoder }, /*TEMP-IMAGES*/ { provide: ListingImages, useValue: { attach: async () => {}, imagesOf: async () => new Map(), deleteFor: async () => {} } }],
  exports: [ListingsService],
})
export class ListingsModule {}
