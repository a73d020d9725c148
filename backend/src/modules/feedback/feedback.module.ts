import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { FeedbackController } from './feedback.controller.js';
import { Feedback } from './feedback.entity.js';
import { FeedbackInbox } from './feedback-inbox.js';
import { FeedbackService } from './feedback.service.js';
import { FeedbackSubscriber } from './feedback.subscriber.js';

/** Feedback from /feedback: stored as fields, mailed to staff, read and answered in the staff inbox (FeedbackInbox). */
@Module({
  imports: [ormEntities([Feedback])],
  controllers: [FeedbackController],
  providers: [FeedbackService, FeedbackSubscriber, FeedbackInbox],
})
export class FeedbackModule {}
