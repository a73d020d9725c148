import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { FeedbackController } from './feedback.controller.js';
import { Feedback } from './feedback.entity.js';
import { FeedbackService } from './feedback.service.js';
import { FeedbackSubscriber } from './feedback.subscriber.js';

/** Feedback from /feedback: stored as fields, mailed to staff; FeedbackService is the staff inbox's read API. */
@Module({
  imports: [ormEntities([Feedback])],
  controllers: [FeedbackController],
  providers: [FeedbackService, FeedbackSubscriber],
  exports: [FeedbackService],
})
export class FeedbackModule {}
