import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { AcceptsOneClickUnsubscribe } from '../../common/one-click-body.js';
import type { User } from '../users/user.entity.js';
import { CurrentUser, SignedIn } from '../auth/access.js';
import {
  CreateSavedSearchRequest,
  SavedSearchMessage,
  SavedSearchSuggestion,
  SavedSearchUnsubscribeRequest,
  SavedSearchView,
  SuggestedNameQuery,
  UpdateSavedSearchRequest,
} from './dto/saved-search.dto.js';
import { SavedSearchesService } from './saved-searches.service.js';

@ApiTags('saved-searches')
@Controller('saved-searches')
export class SavedSearchesController {
  constructor(@Inject(SavedSearchesService) private readonly searches: SavedSearchesService) {}

  @Get()
  @SignedIn()
  @ApiEnvelope(200, SavedSearchView, { isArray: true, description: 'The user’s saved searches, newest first, with their new matches' })
  list(@CurrentUser() user: User): Promise<SavedSearchView[]> {
    return this.searches.list(user.id);
  }

  @Post()
  @HttpCode(201)
  @SignedIn()
  @ApiEnvelope(201, SavedSearchView)
  @ApiErrorEnvelope(400, 'The query (as browse checks it) or a field is invalid; `fields` says which')
  @ApiErrorEnvelope(409, 'The user already keeps 50 saved searches')
  create(@CurrentUser() user: User, @Body() body: CreateSavedSearchRequest): Promise<SavedSearchView> {
    return this.searches.create(user.id, body);
  }

  @Get('suggested-name')
  @SignedIn()
  @ApiEnvelope(200, SavedSearchSuggestion)
  @ApiErrorEnvelope(400, 'The query is invalid; `fields` says which parameter')
  async suggestedName(@Query() { query = '' }: SuggestedNameQuery): Promise<SavedSearchSuggestion> {
    return { name: await this.searches.suggestion(query) };
  }

  /** The one-click link of alert e-mails (List-Unsubscribe-Post) and the page /saved-searches/unsubscribe. */
  @Post('unsubscribe')
  @AcceptsOneClickUnsubscribe()
  @HttpCode(200)
  @ApiEnvelope(200, SavedSearchMessage)
  @ApiErrorEnvelope(400, 'The link is unknown')
  async unsubscribe(@Query() link: SavedSearchUnsubscribeRequest): Promise<SavedSearchMessage> {
    return { message: await this.searches.unsubscribe(link.token.split(',')) };
  }

  @Get(':id')
  @SignedIn()
  @ApiEnvelope(200, SavedSearchView)
  @ApiErrorEnvelope(404, 'Saved search not found (or another user’s)')
  get(@CurrentUser() user: User, @Param('id') id: string): Promise<SavedSearchView> {
    return this.searches.get(user.id, id);
  }

  @Patch(':id')
  @SignedIn()
  @ApiEnvelope(200, SavedSearchView)
  @ApiErrorEnvelope(400, 'A field is invalid')
  @ApiErrorEnvelope(404, 'Saved search not found (or another user’s)')
  update(@CurrentUser() user: User, @Param('id') id: string, @Body() body: UpdateSavedSearchRequest): Promise<SavedSearchView> {
    return this.searches.update(user.id, id, body);
  }

  /** Opened as a browse page: its matches are no longer new. */
  @Post(':id/seen')
  @HttpCode(200)
  @SignedIn()
  @ApiEnvelope(200, SavedSearchView)
  @ApiErrorEnvelope(404, 'Saved search not found (or another user’s)')
  seen(@CurrentUser() user: User, @Param('id') id: string): Promise<SavedSearchView> {
    return this.searches.seen(user.id, id);
  }

  @Delete(':id')
  @SignedIn()
  @ApiEnvelope(200, SavedSearchMessage)
  @ApiErrorEnvelope(404, 'Saved search not found (or another user’s)')
  async remove(@CurrentUser() user: User, @Param('id') id: string): Promise<SavedSearchMessage> {
    await this.searches.remove(user.id, id);
    return { message: 'Saved search deleted' };
  }
}
