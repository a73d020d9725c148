import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { ListingsModule } from '../listings/listings.module.js';
import { SavedSearch, SavedSearchHit, SavedSearchMailPart, SavedSearchPrune } from './saved-search.entity.js';
import { SavedSearchMail } from './saved-search-mail.js';
import { SavedSearchMatcher } from './saved-search-matcher.js';
import { SavedSearchesController } from './saved-searches.controller.js';
import { SavedSearchesService } from './saved-searches.service.js';
import { SavedSearchesSubscriber } from './saved-searches.subscriber.js';

/** Saved searches and their alerts: reverse search of new listings and price drops, the bell's events, instant e-mail and digests. */
@Module({
  imports: [ormEntities([SavedSearch, SavedSearchHit, SavedSearchPrune, SavedSearchMailPart]), ListingsModule],
  controllers: [SavedSearchesController],
  providers: [SavedSearchesService, SavedSearchMatcher, SavedSearchMail, SavedSearchesSubscriber],
  exports: [SavedSearchesService],
})
export class SavedSearchesModule {}
