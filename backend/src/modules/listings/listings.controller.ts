import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiQuery, ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { FEATURED_LIMIT } from '../../contracts/listings.js';
import { Geocoder } from '../../infra/geocoding/geocoder.js';
import { canonicalPostcode, isPlaceId } from '../../contracts/postcodes.js';
import { clientKey } from '../../common/api-rate-limit.js';
import { type AuthenticatedRequest, CurrentUser, SignedIn, VerifiedEmail } from '../auth/access.js';
import { MessageResponse } from '../auth/dto/auth.response.js';
import type { User } from '../users/user.entity.js';
import {
  FeaturedRequest,
  ListingAppealRequest,
  ListingRequest,
  ListingSearchRequest,
  ListingStatusRequest,
  PlaceSearchRequest,
  SavedListingRequest,
} from './dto/listing.request.js';
import {
  FeaturedListings,
  MakesInUse,
  ListingDetail,
  ListingModerationView,
  PostedListing,
  ListingPage,
  OwnListingPage,
  PlaceResponse,
  SavedListingEntry,
  SaveResult,
  SellerDeclaration,
} from './dto/listing.response.js';
import { ListingSearch } from './listing-search/listing-search.js';
import { searchQueryOrFail } from './listing-search/search-query.js';
import { type Viewer } from './listing-views.js';
import { ListingsService } from './listings.service.js';
import { ListingAppeals } from './listing-appeals.js';

const viewerOf = (request: AuthenticatedRequest): Viewer => ({
  userId: request.auth?.user.id,
  ip: request.ip,
});

@ApiTags('listings')
@Controller('listings')
export class ListingsController {
  constructor(
    @Inject(ListingsService) private readonly listings: ListingsService,
    @Inject(ListingSearch) private readonly listingSearch: ListingSearch,
    @Inject(ListingAppeals) private readonly appeals: ListingAppeals,
  ) {}

  @Get()
  @ApiEnvelope(200, ListingPage, { description: 'One page of live listings; pass next_cursor for the next' })
  @ApiErrorEnvelope(400, 'A filter is invalid; `fields` says which')
  // The parameters as they came (the pipe leaves ListingSearchRequest to parseSearchQuery, which checks them once).
  @ApiErrorEnvelope(429, 'Too many postcode lookups from this connection')
  search(@Query() params: ListingSearchRequest, @Req() request: AuthenticatedRequest): Promise<ListingPage> {
    const { query, position } = searchQueryOrFail(params);
    return this.listingSearch.search(query, position, clientKey(request.ip));
  }

  @Get('featured')
  @ApiEnvelope(200, FeaturedListings)
  featured(@Query() query: FeaturedRequest): Promise<FeaturedListings> {
    return this.listings.featured(query.limit ?? FEATURED_LIMIT);
  }

  @Get('makes')
  @ApiEnvelope(200, MakesInUse, { description: 'The makes of live machinery listings, most listed first: the make filter’s choices' })
  makes(): Promise<MakesInUse> {
    return this.listings.makesInUse();
  }

  @Get('mine')
  @SignedIn()
  @ApiQuery({ name: 'cursor', required: false, description: 'next_cursor of the previous page' })
  @ApiEnvelope(200, OwnListingPage, { description: 'The seller’s own listings in every state (My Listings); a hidden one with its case' })
  mine(@CurrentUser() user: User, @Query('cursor') cursor?: string): Promise<OwnListingPage> {
    return this.listings.mine(user.id, cursor);
  }

  @Get('saved')
  @SignedIn()
  @ApiEnvelope(200, SavedListingEntry, { isArray: true })
  saved(@CurrentUser() user: User): Promise<SavedListingEntry[]> {
    return this.listings.saved(user.id);
  }

  @Post('saved')
  @HttpCode(200)
  @SignedIn()
  @ApiEnvelope(200, SaveResult)
  @ApiErrorEnvelope(404, 'Listing Not Found')
  save(@CurrentUser() user: User, @Body() body: SavedListingRequest): Promise<SaveResult> {
    return this.listings.save(user.id, body.listingId);
  }

  @Delete('saved')
  @SignedIn()
  @ApiEnvelope(200, SaveResult)
  @ApiErrorEnvelope(404, 'Listing Not Found')
  unsave(@CurrentUser() user: User, @Body() body: SavedListingRequest): Promise<SaveResult> {
    return this.listings.unsave(user.id, body.listingId);
  }

  @Get('seller-declaration')
  @SignedIn()
  @ApiEnvelope(200, SellerDeclaration, {
    description: 'Whether the post-listing wizard must ask the seller to confirm they are 18 or over',
  })
  sellerDeclaration(@CurrentUser() user: User): SellerDeclaration {
    return this.listings.sellerDeclaration(user);
  }

  @Get(':id')
  @ApiQuery({
    name: 'near',
    required: false,
    description: 'A place id from GET /api/places: the answer gives the distance from it, or says in distance_note why it cannot',
  })
  @ApiEnvelope(200, ListingDetail)
  @ApiErrorEnvelope(404, 'Listing Not Found')
  detail(@Param('id') id: string, @Req() request: AuthenticatedRequest, @Query('near') near?: string): Promise<ListingDetail> {
    return this.listings.detail(id, viewerOf(request), typeof near === 'string' ? placeIdOf(near) : undefined);
  }

  @Post()
  @HttpCode(201)
  @VerifiedEmail()
  @ApiEnvelope(201, PostedListing, { description: 'Live at once, with how many buyers’ wanted ads it answers' })
  @ApiErrorEnvelope(
    400,
    'A field is invalid, or the first listing lacks confirm_over_18; `fields` has one message per field, `error` joins them with commas',
  )
  @ApiErrorEnvelope(403, 'The e-mail address is not confirmed yet')
  @ApiErrorEnvelope(429, 'The day’s posting limit is reached')
  create(@CurrentUser() user: User, @Body() body: ListingRequest): Promise<PostedListing> {
    return this.listings.create(user, body);
  }

  @Put(':id')
  @VerifiedEmail()
  @ApiEnvelope(200, ListingDetail)
  @ApiErrorEnvelope(404, 'Not found, or not the seller’s')
  update(@CurrentUser() user: User, @Param('id') id: string, @Body() body: ListingRequest): Promise<ListingDetail> {
    return this.listings.update(user, id, body);
  }

  @Patch(':id/status')
  @SignedIn()
  @ApiEnvelope(200, ListingDetail, { description: 'Marked sold or let, withdrawn, or renewed for 90 days' })
  @ApiErrorEnvelope(404, 'Not found, or not the seller’s')
  changeStatus(@CurrentUser() user: User, @Param('id') id: string, @Body() body: ListingStatusRequest): Promise<ListingDetail> {
    return this.listings.changeStatus(user, id, body.status);
  }

  @Get(':id/moderation')
  @SignedIn()
  @ApiEnvelope(200, ListingModerationView, { description: 'Why staff hid it and where the owner’s appeal stands' })
  @ApiErrorEnvelope(404, 'Not found, or not the seller’s')
  moderation(@CurrentUser() user: User, @Param('id') id: string): Promise<ListingModerationView> {
    return this.appeals.ofOwner(user.id, id);
  }

  @Post(':id/appeal')
  @SignedIn()
  @HttpCode(201)
  @ApiEnvelope(201, ListingModerationView, { description: 'The appeal is in the staff inbox' })
  @ApiErrorEnvelope(400, 'The appeal text is missing, too short or too long')
  @ApiErrorEnvelope(404, 'Not found, or not the seller’s')
  @ApiErrorEnvelope(409, 'Already appealed once, or not hidden by staff')
  appeal(@CurrentUser() user: User, @Param('id') id: string, @Body() body: ListingAppealRequest): Promise<ListingModerationView> {
    return this.appeals.appeal(user.id, id, body.text);
  }

  @Delete(':id')
  @SignedIn()
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'Deleted, with its photos' })
  @ApiErrorEnvelope(404, 'Not found, or not the seller’s')
  @ApiErrorEnvelope(409, 'Staff hid it and have not closed the case yet')
  async delete(@CurrentUser() user: User, @Param('id') id: string): Promise<MessageResponse> {
    await this.listings.delete(user, id);
    return { message: 'Listing deleted' };
  }
}

/** A person's live listings on their public page (SPEC §7 "GET /users/{id}/listings"). */
@ApiTags('listings')
@Controller('users')
export class SellerListingsController {
  constructor(@Inject(ListingsService) private readonly listings: ListingsService) {}

  @Get(':id/listings')
  @ApiQuery({ name: 'cursor', required: false, description: 'next_cursor of the previous page' })
  @ApiEnvelope(200, ListingPage, { description: 'Empty when the seller keeps listings private' })
  sellerListings(@Param('id') id: string, @Req() request: AuthenticatedRequest, @Query('cursor') cursor?: string): Promise<ListingPage> {
    return this.listings.sellerListings(id, request.auth?.user.id, typeof cursor === 'string' ? cursor : undefined);
  }
}

/** UK places for the location picker and the location filter. */
@ApiTags('listings')
@Controller('places')
export class PlacesController {
  constructor(@Inject(Geocoder) private readonly geocoder: Geocoder) {}

  @Get()
  @ApiEnvelope(200, PlaceResponse, {
    isArray: true,
    description: 'Towns and villages starting with q, largest first; for a UK postcode or outcode, its place (postcodes.io)',
  })
  @ApiErrorEnvelope(429, 'Too many postcode lookups from this connection')
  async search(@Query() query: PlaceSearchRequest, @Req() request: AuthenticatedRequest): Promise<PlaceResponse[]> {
    const places = await this.geocoder.search(query.q, 10, { client: clientKey(request.ip) });
    // A postcode's label keeps what was typed, so the searcher sees their postcode was understood.
    return places.map(({ outcode, ...place }) => ({
      ...place,
      label: outcode ? `${place.id}, ${place.name}, ${place.region}` : `${place.name}, ${place.region}`,
    }));
  }
}

/** A place id as the detail's `near` gives it (a town's or village's, a postcode, an outcode), or undefined. */
function placeIdOf(near: string): string | undefined {
  return isPlaceId(near) ? (canonicalPostcode(near) ?? near) : undefined;
}
