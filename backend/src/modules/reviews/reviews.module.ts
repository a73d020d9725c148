import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { ReviewMail } from './review-mail.js';
import { ReviewModeration } from './review-moderation.js';
import { Review } from './review.entity.js';
import { ReviewsController } from './reviews.controller.js';
import { ReviewsService } from './reviews.service.js';

/** Reviews after a real deal (issue 23 §3): written in /messages, shown on profiles, reported and hidden through staff. */
@Module({
  imports: [ormEntities([Review]), MessagingModule],
  controllers: [ReviewsController],
  providers: [ReviewsService, ReviewModeration, ReviewMail],
  exports: [ReviewsService, ReviewModeration],
})
export class ReviewsModule {}
