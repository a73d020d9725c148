import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { NewsletterSubscription } from './newsletter-subscription.entity.js';
import { NewsletterController } from './newsletter.controller.js';
import { NewsletterService } from './newsletter.service.js';
import { NewsletterSubscriber } from './newsletter.subscriber.js';

/** The newsletter list: double opt-in sign-up from the Subscribe boxes, one-click unsubscribe in every mail. */
@Module({
  imports: [ormEntities([NewsletterSubscription])],
  controllers: [NewsletterController],
  providers: [NewsletterService, NewsletterSubscriber],
})
export class NewsletterModule {}
