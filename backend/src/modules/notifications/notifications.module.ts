import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { ListingsModule } from '../listings/listings.module.js';
import { MessageSummaries, NoMessageSummaries } from './message-summaries.js';
import { CategoryFollow, Notification } from './notification.entity.js';
import { FollowsController, LiveEventsController, NotificationsController } from './notifications.controller.js';
import { NotificationsService } from './notifications.service.js';
import { NotificationsSubscriber } from './notifications.subscriber.js';

/**
 * Notifications: stored per user, created by subscribers of the listings, accounts and messaging
 * events, pushed live; following categories; the catch-up call of the live channel.
 */
@Module({
  imports: [ormEntities([Notification, CategoryFollow]), ListingsModule],
  controllers: [NotificationsController, FollowsController, LiveEventsController],
  providers: [
    NotificationsService,
    NotificationsSubscriber,
    // Messaging binds its own (useExisting: its service) when it lands.
    { provide: MessageSummaries, useClass: NoMessageSummaries },
  ],
  exports: [NotificationsService],
})
export class NotificationsModule {}
