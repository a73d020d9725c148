import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy } from 'class-validator';
import {
  BOOKING_DECISIONS,
  BOOKING_NOTE_MAX_LENGTH,
  BOOKING_TEXTS,
  type BookingDecision,
  CONVERSATION_PAGE_SIZE,
  CONVERSATION_PAGE_SIZE_MAX,
  CONVERSATION_SEARCH_MAX_LENGTH,
  MESSAGE_MAX_LENGTH,
  MESSAGE_PAGE_SIZE_MAX,
  MESSAGING_TEXTS,
} from '../../../contracts/messaging.js';
import { BOOKING_QUANTITY_MAX } from '../../../contracts/booking-quote.js';
import { hasControlCharacters } from '../../../contracts/text-rules.js';
import { IsUuid } from '../../../common/uuid.js';

/** The first thing wrong with a message's text (already trimmed), or undefined. */
export function contentError(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return MESSAGING_TEXTS.empty;
  if (typeof value !== 'string') return MESSAGING_TEXTS.empty;
  if (hasControlCharacters(value, 'multiLine')) return MESSAGING_TEXTS.controlCharacters;
  if (value.length > MESSAGE_MAX_LENGTH) return MESSAGING_TEXTS.tooLong;
  return undefined;
}

const trimmed = ({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value);

export class StartConversationRequest {
  @ApiProperty({ format: 'uuid', description: 'The listing to ask its owner about' })
  @IsUuid('listingId must be the id of a listing')
  listingId!: string;
}

export class SendMessageRequest {
  @ApiProperty({ format: 'uuid' })
  @IsUuid('conversationId must be the id of a conversation')
  conversationId!: string;

  @ApiProperty({ maxLength: MESSAGE_MAX_LENGTH, description: 'Trimmed; line breaks allowed, other control characters refused' })
  @Transform(trimmed)
  @ValidateBy({
    name: 'messageContent',
    validator: {
      validate: (value: unknown) => contentError(value) === undefined,
      defaultMessage: (args) => contentError(args?.value) ?? '',
    },
  })
  content!: string;
}

export class MessagePageQuery {
  @ApiProperty({ required: false, description: 'next_cursor of the previous (newer) page' })
  @IsOptional()
  @IsString()
  before?: string;

  @ApiProperty({ required: false, minimum: 1, maximum: MESSAGE_PAGE_SIZE_MAX })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: `limit must be a whole number from 1 to ${MESSAGE_PAGE_SIZE_MAX}` })
  @Min(1, { message: `limit must be a whole number from 1 to ${MESSAGE_PAGE_SIZE_MAX}` })
  @Max(MESSAGE_PAGE_SIZE_MAX, { message: `limit must be a whole number from 1 to ${MESSAGE_PAGE_SIZE_MAX}` })
  limit?: number;
}

const conversationLimit = `limit must be a whole number from 1 to ${CONVERSATION_PAGE_SIZE_MAX}`;

export class ConversationPageQuery {
  @ApiProperty({ required: false, description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  cursor?: string;

  @ApiProperty({ required: false, minimum: 1, maximum: CONVERSATION_PAGE_SIZE_MAX, default: CONVERSATION_PAGE_SIZE })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: conversationLimit })
  @Min(1, { message: conversationLimit })
  @Max(CONVERSATION_PAGE_SIZE_MAX, { message: conversationLimit })
  limit?: number;

  @ApiProperty({
    required: false,
    maxLength: CONVERSATION_SEARCH_MAX_LENGTH,
    description: "Only conversations whose other participant's name, listing title or last message contains this (any case)",
  })
  @IsOptional()
  @IsString({ message: MESSAGING_TEXTS.searchTooLong })
  @MaxLength(CONVERSATION_SEARCH_MAX_LENGTH, { message: MESSAGING_TEXTS.searchTooLong })
  q?: string;

  @ApiProperty({ required: false, enum: ['unread'], description: 'unread: only conversations with messages the caller has not read' })
  @IsOptional()
  @IsIn(['unread'], { message: 'only must be unread' })
  only?: 'unread';
}

export class BlockRequest {
  @ApiProperty({ format: 'uuid', description: 'The user to block' })
  @IsUuid('userId must be the id of a user')
  userId!: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (value: unknown) =>
  typeof value === 'string' && DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) === value;

function BookingDate(): PropertyDecorator {
  return ValidateBy({
    name: 'bookingDate',
    validator: {
      validate: isDate,
      defaultMessage: (args) => (args?.value === undefined || args.value === '' ? BOOKING_TEXTS.datesRequired : BOOKING_TEXTS.badDate),
    },
  });
}

export class BookingRequestRequest {
  @ApiProperty({ format: 'uuid', description: 'A rental listing' })
  @IsUuid('listingId must be the id of a listing')
  listingId!: string;

  @ApiProperty({ format: 'date', example: '2026-12-01', description: 'First day (YYYY-MM-DD)' })
  @BookingDate()
  from!: string;

  @ApiProperty({ format: 'date', example: '2026-12-07', description: 'Last day (YYYY-MM-DD), on or after from' })
  @BookingDate()
  to!: string;

  @ApiProperty({ required: false, maxLength: BOOKING_NOTE_MAX_LENGTH })
  @IsOptional()
  @Transform(trimmed)
  @ValidateBy({
    name: 'bookingNote',
    validator: {
      validate: (value: unknown) =>
        value === undefined ||
        value === '' ||
        (typeof value === 'string' && value.length <= BOOKING_NOTE_MAX_LENGTH && !hasControlCharacters(value, 'multiLine')),
      defaultMessage: (args) =>
        typeof args?.value === 'string' && args.value.length > BOOKING_NOTE_MAX_LENGTH
          ? BOOKING_TEXTS.noteTooLong
          : MESSAGING_TEXTS.controlCharacters,
    },
  })
  note?: string;

  @ApiProperty({
    required: false,
    minimum: 0.01,
    maximum: BOOKING_QUANTITY_MAX,
    description: 'Acres or head, for a rental priced per acre or per head (two decimal places for acres)',
  })
  @IsOptional()
  @Type(() => Number)
  @ValidateBy({
    name: 'bookingQuantity',
    validator: {
      validate: (value: unknown) => typeof value === 'number' && Number.isFinite(value),
      defaultMessage: () => 'quantity must be a number',
    },
  })
  quantity?: number;
}

export class BookingDecisionRequest {
  @ApiProperty({ enum: BOOKING_DECISIONS })
  @IsIn(BOOKING_DECISIONS, { message: 'decision must be accepted or declined' })
  decision!: BookingDecision;
}
