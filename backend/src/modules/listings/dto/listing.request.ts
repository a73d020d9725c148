import { APPEAL_RULES } from '../../../contracts/listings.js';
import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateBy,
} from 'class-validator';
import { CheckedByOwnParser, TextField } from '../../../common/validation.js';
import { CATEGORIES } from '../../../contracts/categories.js';
import { SELLER_TEXTS, SELLER_TYPES, type SellerType, TRADE_RULES } from '../../../contracts/trust.js';
import {
  DATE_RANGES,
  LISTING_RULES,
  LISTING_SORTS,
  LISTING_TEXTS,
  LISTING_TYPES,
  type ListingType,
  MAX_IMAGES,
  PAGE_SIZE_MAX,
  PRICE_MAX_POUNDS,
  PRICE_UNITS,
  RADIUS_MILES_MAX,
  RENT_SUBCATEGORIES,
  VAT_OPTIONS,
} from '../../../contracts/listings.js';
import { IsUuid } from '../../../common/uuid.js';
import { isPlaceId, PLACE_ID_PATTERN } from '../../../contracts/postcodes.js';

/** A place's id (isPlaceId): a GeoNames town or village, or a UK postcode or outcode as typed. */
function PlaceId(message: string): PropertyDecorator {
  return ValidateBy({
    name: 'placeId',
    validator: { validate: (value: unknown) => typeof value === 'string' && isPlaceId(value), defaultMessage: () => message },
  });
}

const CATEGORY_SLUGS = CATEGORIES.map((c) => c.slug);
const present = (value: unknown) => value !== undefined && value !== null && value !== '';

/** A required choice: its own message when missing, another when not one of the options. */
function Choice(options: readonly string[], missing: string, invalid: string, optional = false): PropertyDecorator {
  return ValidateBy({
    name: 'choice',
    validator: {
      validate: (value: unknown) => (optional && !present(value)) || (typeof value === 'string' && options.includes(value)),
      defaultMessage: (args) => (present(args?.value) ? invalid : missing),
    },
  });
}

/** The wizard's listing (SPEC §3 "Submitted listing payload"), with our additions: price unit, VAT, place, category fields. */
export class ListingRequest {
  @ApiProperty({ enum: LISTING_TYPES })
  @Choice(LISTING_TYPES, LISTING_TEXTS.typeRequired, 'Listing type must be sale, rent or wanted')
  type!: ListingType;

  @ApiProperty({ enum: CATEGORY_SLUGS, description: 'A slug; rentals are in "rentals" with a subcategory' })
  @Choice(CATEGORY_SLUGS, LISTING_TEXTS.categoryRequired, LISTING_TEXTS.invalidCategory)
  category!: string;

  @ApiProperty({ enum: RENT_SUBCATEGORIES, required: false, description: 'For a rental: what is rented' })
  @Choice(RENT_SUBCATEGORIES, LISTING_TEXTS.selectCategory, LISTING_TEXTS.invalidCategory, true)
  subcategory?: string;

  @TextField(LISTING_RULES.title, { example: 'Massey Ferguson 5713 SL, 2019, 2,400 hours' })
  title!: string;

  @TextField(LISTING_RULES.description)
  description!: string;

  @ApiProperty({ description: 'In pounds; pence allowed', example: 38500 })
  @ValidateBy({
    name: 'price',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= PRICE_MAX_POUNDS,
      defaultMessage: (args) =>
        present(args?.value) ? `Price must be a number from 0 to ${PRICE_MAX_POUNDS.toLocaleString('en-GB')}` : LISTING_TEXTS.priceRequired,
    },
  })
  price!: number;

  @ApiProperty({ enum: Object.keys(PRICE_UNITS), required: false })
  @Choice(Object.keys(PRICE_UNITS), '', `Price unit must be one of: ${Object.keys(PRICE_UNITS).join(', ')}`, true)
  price_unit?: string;

  @ApiProperty({ enum: Object.keys(VAT_OPTIONS), required: false })
  @Choice(Object.keys(VAT_OPTIONS), '', 'VAT must be one of: included, plus-vat, no-vat', true)
  vat?: string;

  @TextField(LISTING_RULES.location, { example: 'Taunton, England' })
  location!: string;

  @ApiProperty({
    required: false,
    pattern: PLACE_ID_PATTERN,
    description: 'The place chosen from GET /api/places (preferred over matching the text)',
  })
  @IsOptional()
  @PlaceId(LISTING_TEXTS.unknownPlace)
  place_id?: string;

  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: MAX_IMAGES,
    description: 'Ids of uploaded images, in order; the first is the main photo',
  })
  @IsUuid('Each image must be the id of an uploaded image', { each: true })
  @ValidateBy({
    name: 'images',
    validator: {
      // A wanted ad may have no photo: its buyer has nothing to show yet.
      validate: (value: unknown, args) =>
        Array.isArray(value) &&
        value.length >= ((args?.object as ListingRequest | undefined)?.type === 'wanted' ? 0 : 1) &&
        value.length <= MAX_IMAGES,
      defaultMessage: (args) =>
        Array.isArray(args?.value) && args.value.length > MAX_IMAGES ? LISTING_TEXTS.tooManyImages : LISTING_TEXTS.imageRequired,
    },
  })
  images!: string[];

  @ApiProperty({
    required: false,
    description: `"${LISTING_TEXTS.overEighteenLabel}": needed with a person's first listing, then recorded on the account`,
  })
  @IsOptional()
  @IsBoolean({ message: 'confirm_over_18 must be true or false' })
  confirm_over_18?: boolean;

  @ApiProperty({
    required: false,
    enum: SELLER_TYPES,
    description: "Private or trade: needed with a person's first listing, then kept on the account",
  })
  @IsOptional()
  @IsIn(SELLER_TYPES, { message: SELLER_TEXTS.chooseType })
  seller_type?: SellerType;

  @TextField(TRADE_RULES.business_name, { example: 'Levels Dairy Ltd' })
  business_name?: string;

  @ApiProperty({ required: false, type: Object, additionalProperties: true, description: 'The category’s own fields (CATEGORY_FIELDS)' })
  @IsOptional()
  @IsObject({ message: 'attributes must be an object' })
  attributes?: Record<string, unknown>;

  @ApiProperty({
    required: false,
    type: Object,
    additionalProperties: { type: 'number' },
    description:
      'A wanted ad: the ranges sought, as browse names them (`age_months_min: 6`, `age_months_max: 9`); the price is the most the buyer pays',
  })
  @IsOptional()
  @IsObject({ message: 'wanted_ranges must be an object' })
  wanted_ranges?: Record<string, unknown>;

  @ApiProperty({ required: false, description: `A wanted ad: miles around its place that the buyer will fetch from (default 25)` })
  @IsOptional()
  @IsInt({ message: 'wanted_radius must be a whole number of miles' })
  wanted_radius?: number;
}

export class ListingStatusRequest {
  @ApiProperty({ enum: ['live', 'sold', 'let', 'withdrawn'], description: 'live renews a withdrawn, expired or sold listing for 90 days' })
  @Choice(['live', 'sold', 'let', 'withdrawn'], 'Status is required', 'Status must be live, sold, let or withdrawn')
  status!: 'live' | 'sold' | 'let' | 'withdrawn';
}

export class SavedListingRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid('listingId must be the id of a listing')
  listingId!: string;
}

const toNumber = ({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value);
const toBoolean = ({ value }: { value: unknown }) =>
  value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : value;

/**
 * GET /api/listings: every filter of SPEC §9 on the server, plus category, type, place and radius.
 * Also a stored search's parameters: parseSearchQuery checks them against these rules.
 */
@CheckedByOwnParser()
export class ListingSearchRequest {
  @ApiProperty({ required: false, description: 'Words to find in titles and descriptions' })
  @IsOptional()
  @IsString({ message: 'q must be text' })
  @MaxLength(100, { message: 'Search words must be at most 100 characters' })
  q?: string;

  @ApiProperty({ required: false, enum: CATEGORY_SLUGS })
  @IsOptional()
  @IsIn(CATEGORY_SLUGS, { message: LISTING_TEXTS.invalidCategory })
  category?: string;

  @ApiProperty({ required: false, enum: RENT_SUBCATEGORIES })
  @IsOptional()
  @IsIn(RENT_SUBCATEGORIES, { message: LISTING_TEXTS.invalidCategory })
  subcategory?: string;

  @ApiProperty({
    required: false,
    enum: ['sale', 'rent', 'buy', 'wanted'],
    description: 'buy is the same as sale; wanted: buyers’ wanted ads',
  })
  @IsOptional()
  @IsIn(['sale', 'rent', 'buy', 'wanted'], { message: 'type must be sale, rent, buy or wanted' })
  type?: string;

  @ApiProperty({ required: false, description: `Pounds, 0 to ${PRICE_MAX_POUNDS.toLocaleString('en-GB')}` })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'min_price must be a number' })
  min_price?: number;

  @ApiProperty({ required: false, description: `Pounds, 0 to ${PRICE_MAX_POUNDS.toLocaleString('en-GB')}` })
  @IsOptional()
  @Transform(toNumber)
  @IsNumber({}, { message: 'max_price must be a number' })
  max_price?: number;

  @ApiProperty({
    required: false,
    enum: Object.keys(PRICE_UNITS),
    description:
      'The unit min_price and max_price are in: a listing priced otherwise counts only where its head count or acres convert it (a lot of 40 at £4,000 is £100 per head)',
  })
  @IsOptional()
  @IsIn(Object.keys(PRICE_UNITS), { message: `price_unit must be one of: ${Object.keys(PRICE_UNITS).join(', ')}` })
  price_unit?: string;

  @ApiProperty({
    required: false,
    pattern: PLACE_ID_PATTERN,
    description: 'A place id from GET /api/places, a UK postcode or an outcode (EX20 1AB, TA1)',
  })
  @IsOptional()
  @PlaceId('location must be a place id from the list, a postcode or an outcode')
  location?: string;

  @ApiProperty({ required: false, description: 'Miles around the location (default 25)' })
  @IsOptional()
  @Transform(toNumber)
  @Min(1, { message: 'radius must be at least 1 mile' })
  @Max(RADIUS_MILES_MAX, { message: `radius must be at most ${RADIUS_MILES_MAX} miles` })
  @IsInt({ message: 'radius must be a whole number of miles' })
  radius?: number;

  @ApiProperty({ required: false, description: 'Only sellers whose business details our team verified ("Business verified")' })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'verified must be true or false' })
  verified?: boolean;

  @ApiProperty({ required: false })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'featured must be true or false' })
  featured?: boolean;

  @ApiProperty({ required: false, enum: Object.keys(DATE_RANGES) })
  @IsOptional()
  @IsIn(Object.keys(DATE_RANGES), { message: `date must be one of: ${Object.keys(DATE_RANGES).join(', ')}` })
  date?: string;

  @ApiProperty({ required: false, enum: LISTING_SORTS })
  @IsOptional()
  @IsIn(LISTING_SORTS, { message: `sort must be one of: ${LISTING_SORTS.join(', ')}` })
  sort?: string;

  @ApiProperty({ required: false, description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  cursor?: string;

  @ApiProperty({ required: false, description: `1 to ${PAGE_SIZE_MAX} (default 20)` })
  @IsOptional()
  @Transform(toNumber)
  @Min(1, { message: 'limit must be at least 1' })
  @Max(PAGE_SIZE_MAX, { message: `limit must be at most ${PAGE_SIZE_MAX}` })
  @IsInt({ message: 'limit must be a whole number' })
  limit?: number;

  @ApiProperty({
    required: false,
    description: 'false: the matches are not counted (`total` null), for a list that shows no count (a listing page’s related listings)',
  })
  @IsOptional()
  @Transform(toBoolean)
  @IsBoolean({ message: 'count must be true or false' })
  count?: boolean;
}

export class FeaturedRequest {
  @ApiProperty({ required: false, description: '1 to 24 (default 6)' })
  @IsOptional()
  @Transform(toNumber)
  @Min(1, { message: 'limit must be at least 1' })
  @Max(24, { message: 'limit must be at most 24' })
  @IsInt({ message: 'limit must be a whole number' })
  limit?: number;
}

export class PlaceSearchRequest {
  @ApiProperty({ description: 'The start of a town or village name, or a UK postcode or outcode' })
  @MaxLength(60, { message: 'q must be at most 60 characters' })
  @IsString({ message: 'q must be text' })
  @IsNotEmpty({ message: 'q is required' })
  q!: string;
}

/** The owner's appeal against a listing staff hid. */
export class ListingAppealRequest {
  @TextField(APPEAL_RULES.text, { example: 'The photos are my own: I took them on the farm last week and can send more.' })
  text!: string;
}
