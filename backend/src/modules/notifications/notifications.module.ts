import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { ListingsModule } from '../listings/listings.module.js';
import { MessagingSummaries } from '../messaging/message-summaries.js';
import { MessagingModule } from '../messaging/messaging.module.js';
import { ReviewsModule } from '../reviews/reviews.module.js';
import { SavedSearchesModule } from '../saved-searches/saved-searches.module.js';
import { MessageSummaries } from './message-summaries.js';
import { CategoryFollow, Notification } from './notification.entity.js';
import { FollowsController, LiveEventsController, NotificationsController } from './notifications.controller.js';
import { NotificationsService } from './notifications.service.js';
import { NotificationsSubscriber } from './notifications.subscriber.js';

/**
 * Notifications: stored per user, created by subscribers of the listings, accounts and messaging
 * events, pushed live; following categories; the catch-up call of the live channel.
 */
@Module({
  imports: [ormEntities([Notification, CategoryFollow]), ListingsModule, MessagingModule, SavedSearchesModule, ReviewsModule],
  controllers: [NotificationsController, FollowsController, LiveEventsController],
  providers: [
    NotificationsService,
    NotificationsSubscriber,
    // The port is the notifications module's; messaging answers it from its own tables.
    { provide: MessageSummaries, useExisting: MessagingSummaries },
  ],
  exports: [NotificationsService],
})
export class NotificationsModule {}
