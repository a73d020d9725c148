import { Body, Controller, Get, HttpCode, Inject, Param, Patch, Post, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { type AuthenticatedRequest, CurrentUser, SignedIn } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import {
  EligibilityQuery,
  ReviewEditRequest,
  ReviewEligibility,
  ReviewReplyRequest,
  ReviewRequest,
  ReviewsPage,
  ReviewsQuery,
  ReviewView,
} from './dto/review.dto.js';
import { ReviewsService } from './reviews.service.js';

@ApiTags('reviews')
@Controller('reviews')
export class ReviewsController {
  constructor(@Inject(ReviewsService) private readonly reviews: ReviewsService) {}

  @Get('users/:id')
  @ApiEnvelope(200, ReviewsPage, { description: "A member's shown reviews, newest first; pass next_cursor for the next page" })
  @ApiErrorEnvelope(400, 'The cursor is not valid')
  @ApiErrorEnvelope(404, 'No shown profile with this id')
  of(@Param('id') id: string, @Query() query: ReviewsQuery, @Req() request: AuthenticatedRequest): Promise<ReviewsPage> {
    return this.reviews.of(id, request.auth?.user.id, query.cursor);
  }

  @Get('eligibility')
  @SignedIn()
  @ApiEnvelope(200, ReviewEligibility, { description: 'Whether you may review the other person of this conversation now, and why not' })
  @ApiErrorEnvelope(404, 'Not one of your conversations about a listing')
  eligibility(@CurrentUser() user: User, @Query() query: EligibilityQuery): Promise<ReviewEligibility> {
    return this.reviews.eligibility(user.id, query.conversation_id);
  }

  @Post()
  @SignedIn()
  @HttpCode(201)
  @ApiEnvelope(201, ReviewView, { description: 'Published on their profile; they are told' })
  @ApiErrorEnvelope(400, 'The stars or the text are invalid')
  @ApiErrorEnvelope(403, 'No deal yet, too soon, yourself, or a block between you')
  @ApiErrorEnvelope(404, 'Not one of your conversations about a listing')
  @ApiErrorEnvelope(409, 'You already reviewed them for this listing')
  @ApiErrorEnvelope(429, 'Too many reviews today')
  write(@CurrentUser() user: User, @Body() body: ReviewRequest): Promise<ReviewView> {
    return this.reviews.write(user, body);
  }

  @Patch(':id')
  @SignedIn()
  @ApiEnvelope(200, ReviewView)
  @ApiErrorEnvelope(400, 'The stars or the text are invalid')
  @ApiErrorEnvelope(403, 'Not your review')
  @ApiErrorEnvelope(404, 'No shown review with this id')
  @ApiErrorEnvelope(409, 'More than 48 hours since it was written')
  @ApiErrorEnvelope(429, 'Too many reviews today')
  edit(@CurrentUser() user: User, @Param('id') id: string, @Body() body: ReviewEditRequest): Promise<ReviewView> {
    return this.reviews.edit(user, id, body);
  }

  @Post(':id/reply')
  @SignedIn()
  @HttpCode(201)
  @ApiEnvelope(201, ReviewView)
  @ApiErrorEnvelope(400, 'The reply is invalid')
  @ApiErrorEnvelope(403, 'Not a review of you')
  @ApiErrorEnvelope(404, 'No shown review with this id')
  @ApiErrorEnvelope(409, 'You already replied')
  @ApiErrorEnvelope(429, 'Too many reviews, replies and changes today')
  reply(@CurrentUser() user: User, @Param('id') id: string, @Body() body: ReviewReplyRequest): Promise<ReviewView> {
    return this.reviews.reply(user, id, body.reply, false);
  }

  @Patch(':id/reply')
  @SignedIn()
  @ApiEnvelope(200, ReviewView)
  @ApiErrorEnvelope(400, 'The reply is invalid')
  @ApiErrorEnvelope(403, 'Not a review of you')
  @ApiErrorEnvelope(404, 'No shown review with this id, or no reply yet')
  @ApiErrorEnvelope(409, 'More than 48 hours since the reply was written')
  @ApiErrorEnvelope(429, 'Too many reviews, replies and changes today')
  editReply(@CurrentUser() user: User, @Param('id') id: string, @Body() body: ReviewReplyRequest): Promise<ReviewView> {
    return this.reviews.reply(user, id, body.reply, true);
  }
}
