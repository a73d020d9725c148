import { ApiProperty } from '@nestjs/swagger';
import type { BookingQuote } from '../../../contracts/booking-quote.js';
import { PRICE_UNITS, type PriceUnit, VAT_OPTIONS, type VatOption } from '../../../contracts/listings.js';
import { BOOKING_STATUSES, type BookingDetails, type BookingStatus, type ChatMessage } from '../../../contracts/messaging.js';

export class BookingQuoteView implements BookingQuote {
  @ApiProperty({ enum: Object.keys(PRICE_UNITS) })
  unit!: PriceUnit;

  @ApiProperty({ description: 'The listing’s price when the booking was asked for, in pence' })
  unit_price_pence!: number;

  @ApiProperty({ description: 'Days booked, both ends included' })
  days!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Acres or head, for a price per acre or per head' })
  quantity!: number | null;

  @ApiProperty({ type: String, nullable: true, enum: ['acres', 'head'] })
  quantity_unit!: 'acres' | 'head' | null;

  @ApiProperty({ example: '40 acres × 1 season × £25.00 per acre per season' })
  basis!: string;

  @ApiProperty({ enum: Object.keys(VAT_OPTIONS) })
  vat!: VatOption;

  @ApiProperty({ description: 'Pence, rounded to the nearest penny (halves up) once' })
  subtotal_pence!: number;

  @ApiProperty({ description: 'The VAT added (+ VAT) or contained (VAT included), in pence; 0 when no VAT' })
  vat_pence!: number;

  @ApiProperty({ description: 'What the requester pays, in pence' })
  total_pence!: number;
}

/** The days a rental's accepted bookings hold. */
export class BookedDatesView {
  @ApiProperty({ format: 'date' })
  from!: string;

  @ApiProperty({ format: 'date' })
  to!: string;
}

export class BookingView implements BookingDetails {
  @ApiProperty({ format: 'date' })
  from!: string;

  @ApiProperty({ format: 'date' })
  to!: string;

  @ApiProperty({ enum: BOOKING_STATUSES })
  status!: BookingStatus;

  @ApiProperty({ type: String, nullable: true })
  note!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  listing_id!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  decided_at!: string | null;

  @ApiProperty({ type: BookingQuoteView, nullable: true, required: false, description: 'The price when asked for, kept once accepted' })
  quote?: BookingQuoteView | null;
}

/** A message (SPEC §3 "Message"); a booking request carries its dates and state. */
export class MessageView implements ChatMessage {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid' })
  conversation_id!: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid', description: 'Null when the author deleted their account' })
  sender_id!: string | null;

  @ApiProperty({ description: "'Deleted user' when the author deleted their account" })
  sender_name!: string;

  @ApiProperty()
  content!: string;

  @ApiProperty({ enum: ['text', 'booking-request'] })
  kind!: 'text' | 'booking-request';

  @ApiProperty({ type: BookingView, nullable: true })
  booking!: BookingView | null;

  @ApiProperty({ description: 'Read by its recipient' })
  read!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({
    description:
      'Show the caller a safety notice beside this message (it carries bank details, a payment link or asks to talk elsewhere); only ever true for its recipient',
  })
  safety_notice!: boolean;
}

export class MessagePage {
  @ApiProperty({ type: [MessageView], description: 'Oldest to newest' })
  messages!: MessageView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `before` for the older page; null on the oldest' })
  next_cursor!: string | null;
}

export class ConversationListing {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ type: String, nullable: true, description: 'The main photo, once ready' })
  image!: string | null;

  @ApiProperty({ description: "The listing's status, or 'deleted' when it is gone" })
  status!: string;

  @ApiProperty({ enum: ['sale', 'rent', 'wanted'], nullable: true, type: String })
  type!: 'sale' | 'rent' | 'wanted' | null;

  @ApiProperty({ description: 'True when the caller owns the listing' })
  is_owner!: boolean;
}

export class ConversationParticipant {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ description: "'Deleted user' once the account is deleted" })
  name!: string;

  @ApiProperty({ type: String, nullable: true })
  avatar_url!: string | null;

  @ApiProperty({ description: 'False once the account is deleted' })
  exists!: boolean;
}

export class LastMessageView {
  @ApiProperty()
  content!: string;

  @ApiProperty({ type: String, nullable: true, format: 'uuid' })
  sender_id!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** A conversation as the list shows it (SPEC §3 "Conversation"). */
export class ConversationView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ type: ConversationListing, nullable: true, description: 'Null when the conversation had no listing' })
  listing!: ConversationListing | null;

  @ApiProperty({ type: ConversationParticipant })
  other_participant!: ConversationParticipant;

  @ApiProperty({ type: LastMessageView, nullable: true })
  last_message!: LastMessageView | null;

  @ApiProperty()
  unread_count!: number;

  @ApiProperty({ description: 'The caller blocked the other participant' })
  blocked!: boolean;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

export class ConversationPage {
  @ApiProperty({ type: [ConversationView], description: 'Newest activity first; deleted ones are left out' })
  conversations!: ConversationView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as `cursor` for the next page; null on the last' })
  next_cursor!: string | null;
}

export class UnreadConversation {
  @ApiProperty({ format: 'uuid' })
  conversation_id!: string;

  @ApiProperty()
  count!: number;
}

export class UnreadCounts {
  @ApiProperty()
  total!: number;

  @ApiProperty({ type: [UnreadConversation], description: 'Only conversations with unread messages' })
  conversations!: UnreadConversation[];
}

export class MarkReadResult {
  @ApiProperty({ description: 'How many messages became read' })
  updated!: number;
}

export class BlockedUserView {
  @ApiProperty({ format: 'uuid' })
  user_id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ format: 'date-time' })
  blocked_at!: string;
}

export class BookingRequestResult {
  @ApiProperty({ format: 'uuid' })
  conversation_id!: string;

  @ApiProperty({ type: MessageView })
  message!: MessageView;
}
