import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { AuthModule } from '../auth/auth.module.js';
import { ListingsModule } from '../listings/listings.module.js';
import { ReviewsModule } from '../reviews/reviews.module.js';
import { InboxReply } from './inbox-reply.entity.js';
import { InboxReplySubscriber } from './inbox-reply.subscriber.js';
import { StaffAction } from './staff-action.entity.js';
import { StaffController } from './staff.controller.js';
import { StaffQueues } from './staff-queues.service.js';
import { StaffService } from './staff.service.js';

/**
 * Staff and trust & safety: the inbox over every InboxSource (contact, reports, feedback),
 * replies by e-mail, moderation of listings, reviews and accounts with an audit log, the queue dashboard.
 * Every route needs @Staff(): the staff role (granted by `./fieldmarket staff grant`) and 2FA.
 */
@Module({
  imports: [ormEntities([StaffAction, InboxReply]), AuthModule, ListingsModule, ReviewsModule],
  controllers: [StaffController],
  providers: [StaffService, StaffQueues, InboxReplySubscriber],
})
export class StaffModule {}
