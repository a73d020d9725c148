import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { BusinessCheckInbox } from './business-check-inbox.js';
import { BusinessCheckMail } from './business-check-mail.js';
import { BusinessVerification } from './business-verification.entity.js';
import { SellersController } from './sellers.controller.js';
import { SellersService } from './sellers.service.js';

/** Private or trade sellers, trade details, and "Business verified" checked by staff in the inbox (BusinessCheckInbox). */
@Module({
  imports: [ormEntities([BusinessVerification])],
  controllers: [SellersController],
  providers: [SellersService, BusinessCheckInbox, BusinessCheckMail],
})
export class SellersModule {}
