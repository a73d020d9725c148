import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { CurrentUser, SignedIn } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import { ReportReceivedResponse, ReportRequest } from './dto/report.request.js';
import { ReportsService } from './reports.service.js';

@ApiTags('reports')
@Controller('reports')
export class ReportsController {
  constructor(@Inject(ReportsService) private readonly reports: ReportsService) {}

  @Post()
  @SignedIn()
  @HttpCode(201)
  @ApiEnvelope(201, ReportReceivedResponse, { description: 'Stored; it waits in the staff inbox' })
  @ApiErrorEnvelope(400, 'A field is invalid, or it is your own listing or profile')
  @ApiErrorEnvelope(401, 'Not signed in')
  @ApiErrorEnvelope(404, 'No live listing or shown profile with this id')
  @ApiErrorEnvelope(409, 'You already have an open report of this')
  @ApiErrorEnvelope(429, 'Too many reports in the last hour')
  report(@CurrentUser() user: User, @Body() body: ReportRequest): Promise<ReportReceivedResponse> {
    return this.reports.report(user, body);
  }
}
