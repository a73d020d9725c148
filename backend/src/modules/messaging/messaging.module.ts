import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { ListingsModule } from '../listings/listings.module.js';
import { UserBlock } from './block.entity.js';
import { Conversation } from './conversation.entity.js';
import { Deals } from './deals.js';
import { MessagingSummaries } from './message-summaries.js';
import { Message } from './message.entity.js';
import { MessagingLifecycle } from './messaging-lifecycle.js';
import { MessagingController } from './messaging.controller.js';
import { MessagingService } from './messaging.service.js';

/** Conversations about listings, messages, read state, blocks, booking requests and the unread e-mail. */
@Module({
  imports: [ormEntities([Conversation, Message, UserBlock]), ListingsModule],
  controllers: [MessagingController],
  providers: [MessagingService, MessagingLifecycle, MessagingSummaries, Deals],
  exports: [MessagingService, MessagingSummaries, Deals],
})
export class MessagingModule {}
