import { ApiProperty } from '@nestjs/swagger';
import { type AttributeValue, LISTING_TYPES, type ListingType } from '../../../contracts/listings.js';
import { SELLER_TYPES, type SellerType } from '../../../contracts/trust.js';
import { ImageView } from '../../images/dto/image.response.js';

/** A listing as cards show it (SPEC §3 "Listing (browse shape)"). */
/** A seller's reviews as cards show them. */
export class SellerRating {
  @ApiProperty({ description: 'Average stars, to one decimal', example: 4.7 })
  average!: number;

  @ApiProperty({ description: 'Shown reviews', example: 12 })
  count!: number;
}

export class ListingCard {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ description: 'The start of the description' })
  description!: string;

  @ApiProperty({ description: 'Pounds (GBP)', example: 38500 })
  price!: number;

  @ApiProperty({ example: 'total' })
  price_unit!: string;

  @ApiProperty({ example: 'plus-vat' })
  vat!: string;

  @ApiProperty({
    type: Number,
    nullable: true,
    example: 100,
    description: 'Pounds (GBP) a head: the price itself when priced per head, a lot’s total over its head count; else null',
  })
  price_per_head!: number | null;

  @ApiProperty({ enum: LISTING_TYPES, description: 'wanted: a buyer’s wanted ad, its price the most they pay' })
  type!: ListingType;

  @ApiProperty({ type: String, nullable: true })
  rent_subcategory!: string | null;

  @ApiProperty({ example: 'Taunton, England' })
  location!: string;

  @ApiProperty({ type: Number, nullable: true, description: 'From the searched place, when one was given' })
  distance_miles!: number | null;

  @ApiProperty()
  category_name!: string;

  @ApiProperty()
  category_slug!: string;

  @ApiProperty({ format: 'uuid' })
  seller_id!: string;

  @ApiProperty()
  seller_name!: string;

  @ApiProperty({ description: '"Business verified": our team checked the trade seller\'s business details' })
  seller_verified!: boolean;

  @ApiProperty({ enum: SELLER_TYPES, nullable: true, type: String, description: 'Private or trade seller; null if never chosen' })
  seller_type!: SellerType | null;

  @ApiProperty({
    type: SellerRating,
    nullable: true,
    description: "The seller's average stars and count of reviews; null under 3 reviews",
  })
  seller_rating!: SellerRating | null;

  @ApiProperty({ type: [ImageView], description: 'In order; the first is the main photo' })
  images!: ImageView[];

  @ApiProperty()
  featured!: boolean;

  @ApiProperty()
  views!: number;

  @ApiProperty({ description: 'How many people saved it (the spec’s favourites)' })
  saves_count!: number;

  @ApiProperty({ enum: ['live', 'sold', 'let', 'withdrawn', 'expired', 'removed'] })
  status!: string;

  @ApiProperty({ format: 'date-time', description: 'When it (last) went live' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;
}

export class ListingPage {
  @ApiProperty({ type: [ListingCard] })
  listings!: ListingCard[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last' })
  next_cursor!: string | null;

  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Matches, on the first page only (and not with count=false); at most 1,000 counted',
  })
  total!: number | null;

  @ApiProperty({ description: 'More than `total` match' })
  total_is_lower_bound!: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'The words searched instead, when the given ones found nothing (typos)' })
  searched_for!: string | null;
}

export class FeaturedListings {
  @ApiProperty({ enum: ['featured', 'newest'], description: 'newest while staff have featured none' })
  kind!: 'featured' | 'newest';

  @ApiProperty({ type: [ListingCard] })
  listings!: ListingCard[];
}

export class MakesInUse {
  @ApiProperty({ type: [String], example: ['Massey Ferguson', 'John Deere'], description: 'As sellers wrote them, most listed first' })
  makes!: string[];
}

export class ListingSeller {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  avatar_url!: string | null;

  @ApiProperty({ format: 'date-time' })
  member_since!: string;

  @ApiProperty({ description: '"Business verified" (not an e-mail check)' })
  verified!: boolean;

  @ApiProperty({ enum: SELLER_TYPES, nullable: true, type: String })
  seller_type!: SellerType | null;

  @ApiProperty({ type: String, nullable: true, description: "A trade seller's business name" })
  business_name!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'When our team verified the business' })
  business_verified_at!: string | null;
}

export class ListingDetail extends ListingCard {
  @ApiProperty({ description: 'The whole description' })
  declare description: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  attributes!: Record<string, AttributeValue>;

  @ApiProperty({ type: ListingSeller })
  seller!: ListingSeller;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Why distance_miles is null although `near` was given (the postcode service not answering, the place unknown)',
  })
  distance_note!: string | null;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'number' },
    nullable: true,
    description: 'A wanted ad: the ranges its buyer seeks, as browse names them (age_months_min...)',
  })
  wanted_ranges!: Record<string, number> | null;

  @ApiProperty({ type: Number, nullable: true, description: 'A wanted ad: miles around its place' })
  wanted_radius!: number | null;

  @ApiProperty({ description: 'Latitude of the place (a town or an outcode, rounded to 0.01 degree; never the exact site)' })
  latitude!: number;

  @ApiProperty()
  longitude!: number;

  @ApiProperty({ type: String, nullable: true })
  place_id!: string | null;

  @ApiProperty({ description: 'The viewer saved it' })
  saved!: boolean;

  @ApiProperty({ description: 'The viewer is the seller' })
  is_owner!: boolean;
}

/** The answer to posting a listing: the listing, and how many buyers' wanted ads it answers. */
export class PostedListing extends ListingDetail {
  @ApiProperty({ description: 'Live wanted ads this listing matches (their owners are told); 0 for a wanted ad' })
  wanted_by!: number;
}

export class SavedListingEntry {
  @ApiProperty({ format: 'uuid' })
  listing_id!: string;

  @ApiProperty({ format: 'date-time' })
  saved_at!: string;

  @ApiProperty({ type: ListingCard })
  listing!: ListingCard;
}

export class SaveResult {
  @ApiProperty()
  saved!: boolean;

  @ApiProperty()
  saves_count!: number;
}

/** What the wizard needs to know of the seller before a listing is published. */
export class SellerDeclaration {
  @ApiProperty({ description: 'Whether the seller has declared they are 18 or over (asked before the first listing)' })
  over_18_confirmed!: boolean;

  @ApiProperty({
    enum: SELLER_TYPES,
    nullable: true,
    type: String,
    description: 'Private or trade; null until chosen (asked with the first listing)',
  })
  seller_type!: SellerType | null;
}

export class PlaceResponse {
  @ApiProperty()
  id!: string;

  @ApiProperty({ example: 'Taunton' })
  name!: string;

  @ApiProperty({ example: 'England' })
  region!: string;

  @ApiProperty({ example: 'Taunton, England' })
  label!: string;

  @ApiProperty()
  latitude!: number;

  @ApiProperty()
  longitude!: number;
}

/** The owner's appeal against the hiding, as they see it. */
export class ListingAppealView {
  @ApiProperty()
  text!: string;

  @ApiProperty({
    enum: ['pending', 'approved', 'declined'],
    description: 'approved: the listing was restored; declined: the hiding stands',
  })
  status!: 'pending' | 'approved' | 'declined';

  @ApiProperty({ type: String, nullable: true, description: 'Why staff upheld the hiding' })
  decline_reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  decided_at!: string | null;
}

/** A listing's moderation as its owner sees it: why staff hid it, and their appeal. */
export class ListingModerationView {
  @ApiProperty({ description: 'Hidden from everyone but its owner (status removed)' })
  hidden!: boolean;

  @ApiProperty({ description: 'Hidden with its owner’s suspended account rather than for itself' })
  hidden_with_account!: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'The reason staff gave for hiding it' })
  reason!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  hidden_at!: string | null;

  @ApiProperty({ description: 'Staff closed the case (upheld the hiding, with or without an appeal)' })
  case_closed!: boolean;

  @ApiProperty({ description: 'The owner may still appeal (once per hiding)' })
  may_appeal!: boolean;

  @ApiProperty({ description: 'The owner may delete it: not hidden by staff, or the case is closed' })
  may_delete!: boolean;

  @ApiProperty({ type: ListingAppealView, nullable: true })
  appeal!: ListingAppealView | null;
}

/** One of the owner's own listings in My Listings: a card, and for a listing staff hid, its case. */
export class OwnListingCard extends ListingCard {
  @ApiProperty({
    type: ListingModerationView,
    nullable: true,
    description: 'Why staff hid it and where its case stands; null when not hidden',
  })
  moderation!: ListingModerationView | null;
}

export class OwnListingPage extends ListingPage {
  @ApiProperty({ type: [OwnListingCard] })
  declare listings: OwnListingCard[];
}
