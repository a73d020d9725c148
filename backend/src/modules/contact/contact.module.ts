import { ormEntities } from '../../infra/database/entities.js';
import { Module } from '@nestjs/common';
import { ContactInbox } from './contact-inbox.js';
import { ContactMailSubscriber } from './contact-mail.subscriber.js';
import { ContactRetention } from './contact-retention.js';
import { ContactMessage } from './contact-message.entity.js';
import { ContactController } from './contact.controller.js';
import { ContactService } from './contact.service.js';

@Module({
  imports: [ormEntities([ContactMessage])],
  controllers: [ContactController],
  providers: [ContactService, ContactMailSubscriber, ContactRetention, ContactInbox],
})
export class ContactModule {}
