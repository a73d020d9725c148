import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { StoriesController } from './stories.controller.js';
import { StoriesService } from './stories.service.js';
import { StoryInbox } from './story-inbox.js';
import { SuccessStory } from './story.entity.js';

/** Success stories from members who did a deal here, approved by staff in the inbox (StoryInbox) before they are shown. */
@Module({
  imports: [ormEntities([SuccessStory]), MessagingModule],
  controllers: [StoriesController],
  providers: [StoriesService, StoryInbox],
})
export class StoriesModule {}
