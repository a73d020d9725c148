import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { TextField } from '../../../common/validation.js';
import { ALERT_FREQUENCIES, type AlertFrequency, SAVED_SEARCH_NAME_RULE } from '../../../contracts/saved-searches.js';

const FREQUENCY_MESSAGE = `frequency must be one of ${ALERT_FREQUENCIES.join(', ')}`;

/** POST /api/saved-searches: the browse page's query, as its URL states it. */
export class CreateSavedSearchRequest {
  @ApiProperty({
    description: 'The browse URL’s query string (e.g. "q=tractor&category=equipment&location=2636389&radius=25")',
    example: 'q=tractor&category=equipment',
  })
  // Listed after the length: class-validator runs a field's checks from the last up and reports the first that fails.
  @MaxLength(2000, { message: 'query must be at most 2,000 characters' })
  @IsString({ message: 'query must be the browse page’s query string' })
  query!: string;

  /** Suggested from the query when absent. */
  @TextField(SAVED_SEARCH_NAME_RULE, { example: 'Massey Ferguson tractors within 25 miles of Taunton under £40,000' })
  name?: string;

  @ApiProperty({ enum: ALERT_FREQUENCIES, required: false, description: 'instant when absent' })
  @IsOptional()
  @IsIn(ALERT_FREQUENCIES, { message: FREQUENCY_MESSAGE })
  frequency?: AlertFrequency;

  @ApiProperty({ required: false, description: 'true when absent' })
  @IsOptional()
  @IsBoolean({ message: 'price_drops must be true or false' })
  price_drops?: boolean;
}

/** PATCH /api/saved-searches/:id: what may change; absent fields stay. */
export class UpdateSavedSearchRequest {
  @TextField(SAVED_SEARCH_NAME_RULE, { example: 'Tractors near Taunton' })
  name?: string;

  @ApiProperty({ enum: ALERT_FREQUENCIES, required: false })
  @IsOptional()
  @IsIn(ALERT_FREQUENCIES, { message: FREQUENCY_MESSAGE })
  frequency?: AlertFrequency;

  @ApiProperty({ required: false })
  @IsOptional()
  @IsBoolean({ message: 'price_drops must be true or false' })
  price_drops?: boolean;

  @ApiProperty({ required: false, description: 'Paused searches are kept but tell nothing' })
  @IsOptional()
  @IsBoolean({ message: 'paused must be true or false' })
  paused?: boolean;
}

/** POST /api/saved-searches/unsubscribe: the tokens of an alert e-mail's link (one-click, RFC 8058). */
export class SavedSearchUnsubscribeRequest {
  @ApiProperty({ description: 'Comma-separated unsubscribe tokens, as the e-mail’s link gives them' })
  @IsString({ message: 'token must be the token from the e-mail’s link' })
  @MaxLength(2000, { message: 'token must be the token from the e-mail’s link' })
  token!: string;
}

export class SavedSearchView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'The browse page’s query string' })
  query!: string;

  @ApiProperty({ description: '/browse with the query' })
  browse_url!: string;

  @ApiProperty({ enum: ALERT_FREQUENCIES })
  frequency!: AlertFrequency;

  @ApiProperty()
  price_drops!: boolean;

  @ApiProperty()
  paused!: boolean;

  @ApiProperty({ type: 'integer', description: 'Matches since the owner last opened it' })
  new_matches!: number;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export class SavedSearchSuggestion {
  @ApiProperty({ example: 'Massey Ferguson tractors within 25 miles of Taunton under £40,000' })
  name!: string;
}

export class SavedSearchMessage {
  @ApiProperty()
  message!: string;
}

/** GET /api/saved-searches/suggested-name: the name a save of this browse query would get. */
export class SuggestedNameQuery {
  @ApiProperty({ required: false, description: 'The browse URL’s query string', example: 'q=tractor&category=equipment' })
  @IsOptional()
  // Listed after the length: class-validator runs a field's checks from the last up and reports the first that fails.
  @MaxLength(2000, { message: 'query must be at most 2,000 characters' })
  @IsString({ message: 'query must be the browse page’s query string' })
  query?: string;
}
