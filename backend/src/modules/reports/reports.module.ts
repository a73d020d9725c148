import { Module } from '@nestjs/common';
import { ormEntities } from '../../infra/database/entities.js';
import { ListingsModule } from '../listings/listings.module.js';
import { ReviewsModule } from '../reviews/reviews.module.js';
import { Report } from './report.entity.js';
import { ReportsController } from './reports.controller.js';
import { ReportsInbox } from './reports-inbox.js';
import { ReportsService } from './reports.service.js';

/** Reports of listings, profiles and reviews by signed-in users; they land in the staff inbox. */
@Module({
  imports: [ormEntities([Report]), ListingsModule, ReviewsModule],
  controllers: [ReportsController],
  providers: [ReportsService, ReportsInbox],
})
export class ReportsModule {}
