import { Body, Controller, Delete, ForbiddenException, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { MESSAGING_TEXTS } from '../../contracts/messaging.js';
import { CurrentUser, SignedIn, SignInText, VerifiedEmail } from '../auth/access.js';
import { MessageResponse } from '../auth/dto/auth.response.js';
import type { User } from '../users/user.entity.js';
import {
  BlockRequest,
  BookingDecisionRequest,
  BookingRequestRequest,
  ConversationPageQuery,
  MessagePageQuery,
  SendMessageRequest,
  StartConversationRequest,
} from './dto/messaging.request.js';
import {
  BlockedUserView,
  BookedDatesView,
  BookingRequestResult,
  ConversationPage,
  ConversationView,
  MarkReadResult,
  MessagePage,
  MessageView,
  UnreadCounts,
} from './dto/messaging.response.js';
import { MessagingService } from './messaging.service.js';

/** The caller's own id in a path (SPEC §7 keeps user ids in these paths); anyone else's is refused. */
function ownId(user: User, userId: string): void {
  if (userId !== user.id) throw new ForbiddenException(MESSAGING_TEXTS.notYourUserId);
}

/** SPEC §7 "Messages": conversations, messages, read state, unread counts, blocks and booking requests. */
@ApiTags('messages')
@Controller('messages')
@SignedIn()
@SignInText(MESSAGING_TEXTS.signIn)
@ApiErrorEnvelope(401, "Authentication Required: 'Please sign in to send messages.'")
export class MessagingController {
  constructor(@Inject(MessagingService) private readonly messaging: MessagingService) {}

  @Get('conversations')
  @ApiEnvelope(200, ConversationPage, { description: 'One page, newest activity first; pass next_cursor as `cursor` for the next' })
  @ApiErrorEnvelope(400, 'A page link no longer valid, a limit outside 1 to 100, or search text over 100 characters')
  conversations(@CurrentUser() user: User, @Query() query: ConversationPageQuery): Promise<ConversationPage> {
    return this.messaging.conversations(user.id, query);
  }

  @Post('conversations')
  @HttpCode(200)
  @VerifiedEmail()
  @ApiEnvelope(200, ConversationView, { description: 'The conversation with the listing’s owner about it, made if new' })
  @ApiErrorEnvelope(400, "Your own listing ('You cannot send a message to yourself.'), or the listing is no longer live")
  @ApiErrorEnvelope(403, 'E-mail not confirmed, or one of you blocked the other')
  @ApiErrorEnvelope(404, 'Listing Not Found')
  @ApiErrorEnvelope(429, 'Too many new conversations in the last hour')
  start(@CurrentUser() user: User, @Body() body: StartConversationRequest): Promise<ConversationView> {
    return this.messaging.start(user, body.listingId);
  }

  @Get('conversations/:id')
  @ApiEnvelope(200, ConversationView, { description: 'One conversation as the list shows it' })
  @ApiErrorEnvelope(404, 'Not found, or not the caller’s')
  conversation(@CurrentUser() user: User, @Param('id') id: string): Promise<ConversationView> {
    return this.messaging.conversation(user.id, id);
  }

  @Delete('conversations/:id')
  @ApiEnvelope(200, MessageResponse, {
    description: 'Gone from the caller’s list (the other party keeps it); back if a new message arrives',
  })
  @ApiErrorEnvelope(404, 'Not found, or not the caller’s')
  async deleteConversation(@CurrentUser() user: User, @Param('id') id: string): Promise<MessageResponse> {
    await this.messaging.deleteConversation(user.id, id);
    return { message: 'Conversation deleted' };
  }

  @Get('conversations/:id/messages')
  @ApiEnvelope(200, MessagePage, { description: 'The newest page first; pass next_cursor as `before` for older messages' })
  @ApiErrorEnvelope(404, 'Not found, or not the caller’s')
  messages(@CurrentUser() user: User, @Param('id') id: string, @Query() query: MessagePageQuery): Promise<MessagePage> {
    return this.messaging.messages(user.id, id, query.before, query.limit);
  }

  @Post('send')
  @HttpCode(201)
  @ApiEnvelope(201, MessageView, { description: 'Stored; the recipient’s open pages get it live' })
  @ApiErrorEnvelope(400, "Empty ('Please enter a message to send.'), too long or with control characters")
  @ApiErrorEnvelope(403, 'One of you blocked the other, or the other account is gone')
  @ApiErrorEnvelope(404, 'Not found, or not the caller’s')
  @ApiErrorEnvelope(429, 'Too many messages in the last minute')
  send(@CurrentUser() user: User, @Body() body: SendMessageRequest): Promise<MessageView> {
    return this.messaging.send(user, body.conversationId, body.content);
  }

  @Put('read/:conversationId/:userId')
  @ApiEnvelope(200, MarkReadResult, { description: 'The other party’s messages become read (never the caller’s own)' })
  @ApiErrorEnvelope(403, 'userId is not the caller')
  @ApiErrorEnvelope(404, 'Not found, or not the caller’s')
  markRead(
    @CurrentUser() user: User,
    @Param('conversationId') conversationId: string,
    @Param('userId') userId: string,
  ): Promise<MarkReadResult> {
    ownId(user, userId);
    return this.messaging.markRead(user.id, conversationId);
  }

  @Get('unread/:userId')
  @ApiEnvelope(200, UnreadCounts)
  @ApiErrorEnvelope(403, 'userId is not the caller')
  unread(@CurrentUser() user: User, @Param('userId') userId: string): Promise<UnreadCounts> {
    ownId(user, userId);
    return this.messaging.unread(user.id);
  }

  @Get('blocks')
  @ApiEnvelope(200, BlockedUserView, { isArray: true, description: 'Whom the caller blocked, newest first' })
  blocks(@CurrentUser() user: User): Promise<BlockedUserView[]> {
    return this.messaging.blocks(user.id);
  }

  @Post('blocks')
  @HttpCode(200)
  @ApiEnvelope(200, MessageResponse, { description: 'Blocked (again is fine): neither can message the other until unblocked' })
  @ApiErrorEnvelope(400, 'Yourself')
  @ApiErrorEnvelope(404, 'User not found')
  async block(@CurrentUser() user: User, @Body() body: BlockRequest): Promise<MessageResponse> {
    await this.messaging.block(user, body.userId);
    return { message: 'User blocked' };
  }

  @Delete('blocks/:userId')
  @ApiEnvelope(200, MessageResponse, { description: 'Unblocked (or was not blocked)' })
  async unblock(@CurrentUser() user: User, @Param('userId') userId: string): Promise<MessageResponse> {
    await this.messaging.unblock(user, userId);
    return { message: 'User unblocked' };
  }

  @Post('booking-requests')
  @HttpCode(201)
  @VerifiedEmail()
  @ApiEnvelope(201, BookingRequestResult, { description: 'Sent as a booking-request message in the conversation about the listing' })
  @ApiErrorEnvelope(400, 'Dates missing, in the wrong order, past or outside the availability; not a rental; your own listing')
  @ApiErrorEnvelope(403, 'E-mail not confirmed, or one of you blocked the other')
  @ApiErrorEnvelope(404, 'Listing Not Found')
  requestBooking(@CurrentUser() user: User, @Body() body: BookingRequestRequest): Promise<BookingRequestResult> {
    return this.messaging.requestBooking(user, body);
  }

  @Get('booked-dates/:listingId')
  @ApiEnvelope(200, BookedDatesView, {
    isArray: true,
    description: 'The days the rental’s accepted bookings hold, from today on: not bookable',
  })
  @ApiErrorEnvelope(404, 'Listing Not Found')
  bookedDates(@Param('listingId') listingId: string): Promise<BookedDatesView[]> {
    return this.messaging.bookedDates(listingId);
  }

  @Put('booking-requests/:messageId')
  @ApiEnvelope(200, MessageView, { description: 'The request with its new status' })
  @ApiErrorEnvelope(
    403,
    'Only the listing’s owner decides; not while one of you blocked the other, nor once the requester’s account is gone',
  )
  @ApiErrorEnvelope(404, 'Not found, or not in the caller’s conversations')
  @ApiErrorEnvelope(409, 'Already accepted or declined')
  decideBooking(
    @CurrentUser() user: User,
    @Param('messageId') messageId: string,
    @Body() body: BookingDecisionRequest,
  ): Promise<MessageView> {
    return this.messaging.decideBooking(user, messageId, body.decision);
  }
}
