import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable } from '@nestjs/common';
import { MessageSummaries, type MessageSummary } from '../notifications/message-summaries.js';
import { User } from '../users/user.entity.js';
import { participantName } from './conversation.entity.js';
import { Message } from './message.entity.js';

/** Messaging's answer to the notifications module's "what is this message?": who sent it and what it says. */
@Injectable()
export class MessagingSummaries extends MessageSummaries {
  constructor(@Inject(EntityManager) private readonly em: EntityManager) {
    super();
  }

  async summary(messageId: string): Promise<MessageSummary | null> {
    const em = this.em.fork();
    const message = await em.findOne(Message, { id: messageId });
    if (!message) return null;
    const sender = await em.findOne(User, { id: message.sender });
    return {
      senderName: participantName(sender),
      // A booking request's text already says what it is ("Booking request: 1 Dec 2026 to 7 Dec 2026").
      preview: message.content,
      conversationId: message.conversation,
    };
  }
}
