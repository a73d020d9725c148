import { Body, Controller, Get, Header, HttpCode, Inject, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { CurrentUser, SignedIn, VerifiedEmail } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import { OwnStoriesResponse, PublishedStoriesQuery, PublishedStoriesResponse, StoryRequest } from './dto/story.dto.js';
import { PUBLISHED_STORIES_MAX, StoriesService } from './stories.service.js';

@ApiTags('stories')
@Controller('stories')
export class StoriesController {
  constructor(@Inject(StoriesService) private readonly stories: StoriesService) {}

  @Get()
  @Header('cache-control', 'no-cache')
  @ApiEnvelope(200, PublishedStoriesResponse)
  @ApiErrorEnvelope(400, 'limit is not a whole number from 1 to 30')
  published(@Query() query: PublishedStoriesQuery): Promise<PublishedStoriesResponse> {
    return this.stories.published(query.limit ?? PUBLISHED_STORIES_MAX);
  }

  @Get('mine')
  @SignedIn()
  @ApiEnvelope(200, OwnStoriesResponse)
  mine(@CurrentUser() user: User): Promise<OwnStoriesResponse> {
    return this.stories.mine(user.id);
  }

  @Post()
  @VerifiedEmail()
  @HttpCode(201)
  @ApiEnvelope(201, OwnStoriesResponse, { description: 'Stored for our team to read; published once approved' })
  @ApiErrorEnvelope(400, 'The story or the naming is invalid')
  @ApiErrorEnvelope(403, 'No deal done here yet')
  @ApiErrorEnvelope(409, 'A story is already waiting')
  @ApiErrorEnvelope(429, 'Too many stories today')
  tell(@CurrentUser() user: User, @Body() body: StoryRequest): Promise<OwnStoriesResponse> {
    return this.stories.tell(user.id, body);
  }
}
