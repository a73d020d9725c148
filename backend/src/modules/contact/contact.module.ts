import { type DynamicModule, Module } from '@nestjs/common';
import { ContactDeliveryJob } from './contact-delivery.job.js';
import { ContactController } from './contact.controller.js';
import { ContactService } from './contact.service.js';

@Module({})
export class ContactModule {
  /** `http`: expose the endpoint (web process); the job handler is always registered. */
  static forRoot(options: { http: boolean }): DynamicModule {
    return {
      module: ContactModule,
      controllers: options.http ? [ContactController] : [],
      providers: [ContactService, ContactDeliveryJob],
    };
  }
}
