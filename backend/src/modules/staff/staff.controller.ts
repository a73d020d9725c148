import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { CurrentUser, Staff } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import {
  ArchiveRequest,
  AssignRequest,
  DecisionRequest,
  FeatureRequest,
  InboxQuery,
  OptionalReasonRequest,
  ReadRequest,
  ReasonRequest,
  ReplyRequest,
} from './dto/staff.request.js';
import {
  AccountModerationResponse,
  AuditEntryResponse,
  InboxItemDetailResponse,
  InboxPage,
  InboxReplyResponse,
  InboxSummaryResponse,
  ListingModerationResponse,
  QueueDashboardResponse,
  StaffMemberResponse,
} from './dto/staff.response.js';
import { StaffQueues } from './staff-queues.service.js';
import { StaffService } from './staff.service.js';

const STAFF_ONLY = 'Not staff, or a staff account without two-factor sign-in (the message says which)';

@ApiTags('staff')
@Controller('staff')
@Staff()
export class StaffController {
  constructor(
    @Inject(StaffService) private readonly staff: StaffService,
    @Inject(StaffQueues) private readonly queues: StaffQueues,
  ) {}

  // ----- Inbox -----

  @Get('inbox')
  @ApiEnvelope(200, InboxPage, { description: 'Contact messages, reports and feedback, newest first' })
  @ApiErrorEnvelope(400, 'A filter is invalid')
  @ApiErrorEnvelope(403, STAFF_ONLY)
  inbox(@Query() query: InboxQuery, @CurrentUser() me: User): Promise<InboxPage> {
    return this.staff.inbox(query, me);
  }

  @Get('inbox/summary')
  @ApiEnvelope(200, InboxSummaryResponse, { description: 'What waits, per kind, against the stated response times' })
  @ApiErrorEnvelope(403, STAFF_ONLY)
  summary(): Promise<InboxSummaryResponse> {
    return this.staff.summary();
  }

  @Get('inbox/:kind/:id')
  @ApiEnvelope(200, InboxItemDetailResponse)
  @ApiErrorEnvelope(404, 'No such item')
  detail(@Param('kind') kind: string, @Param('id') id: string): Promise<InboxItemDetailResponse> {
    return this.staff.detail(kind, id);
  }

  @Post('inbox/:kind/:id/read')
  @HttpCode(204)
  @ApiErrorEnvelope(404, 'No such item')
  async read(@CurrentUser() me: User, @Param('kind') kind: string, @Param('id') id: string, @Body() body: ReadRequest): Promise<void> {
    await this.staff.setRead(me, kind, id, body.read);
  }

  @Post('inbox/:kind/:id/archive')
  @HttpCode(204)
  @ApiErrorEnvelope(404, 'No such item')
  async archive(
    @CurrentUser() me: User,
    @Param('kind') kind: string,
    @Param('id') id: string,
    @Body() body: ArchiveRequest,
  ): Promise<void> {
    await this.staff.setArchived(me, kind, id, body.archived);
  }

  @Post('inbox/:kind/:id/assign')
  @HttpCode(204)
  @ApiErrorEnvelope(400, 'Not a member of staff')
  @ApiErrorEnvelope(404, 'No such item')
  async assign(@CurrentUser() me: User, @Param('kind') kind: string, @Param('id') id: string, @Body() body: AssignRequest): Promise<void> {
    await this.staff.assign(me, kind, id, body.staff_id);
  }

  @Post('inbox/:kind/:id/replies')
  @HttpCode(201)
  @ApiEnvelope(201, InboxReplyResponse, { description: 'Stored in the thread; the e-mail is sent by a job' })
  @ApiErrorEnvelope(400, 'The reply is invalid, or there is no address to reply to')
  @ApiErrorEnvelope(404, 'No such item')
  reply(
    @CurrentUser() me: User,
    @Param('kind') kind: string,
    @Param('id') id: string,
    @Body() body: ReplyRequest,
  ): Promise<InboxReplyResponse> {
    return this.staff.reply(me, kind, id, body.message);
  }

  @Post('inbox/:kind/:id/decision')
  @HttpCode(204)
  @ApiErrorEnvelope(400, 'The decision is invalid, a decline has no reason, or items of this kind are not decided')
  @ApiErrorEnvelope(404, 'No such item')
  async decide(
    @CurrentUser() me: User,
    @Param('kind') kind: string,
    @Param('id') id: string,
    @Body() body: DecisionRequest,
  ): Promise<void> {
    await this.staff.decide(me, kind, id, body.decision, body.reason);
  }

  @Delete('inbox/:kind/:id')
  @HttpCode(204)
  @ApiErrorEnvelope(404, 'No such item')
  async delete(@CurrentUser() me: User, @Param('kind') kind: string, @Param('id') id: string): Promise<void> {
    await this.staff.delete(me, kind, id);
  }

  @Get('members')
  @ApiEnvelope(200, StaffMemberResponse, { isArray: true, description: 'Who items can be assigned to' })
  members(@CurrentUser() me: User): Promise<StaffMemberResponse[]> {
    return this.staff.members(me);
  }

  @Get('audit')
  @ApiEnvelope(200, AuditEntryResponse, { isArray: true, description: 'The latest 100 staff actions (on one target with both parameters)' })
  audit(@Query('target_kind') targetKind?: string, @Query('target_id') targetId?: string): Promise<AuditEntryResponse[]> {
    return this.staff.audit(targetKind, targetId);
  }

  // ----- Moderation -----

  @Get('listings/:id')
  @ApiEnvelope(200, ListingModerationResponse)
  @ApiErrorEnvelope(404, 'No such listing')
  listing(@Param('id') id: string): Promise<ListingModerationResponse> {
    return this.staff.listing(id);
  }

  @Post('listings/:id/hide')
  @ApiEnvelope(201, ListingModerationResponse, { description: 'Hidden (status removed); the seller is e-mailed the reason' })
  @ApiErrorEnvelope(404, 'No such listing')
  @ApiErrorEnvelope(409, 'Already hidden')
  hide(@CurrentUser() me: User, @Param('id') id: string, @Body() body: ReasonRequest): Promise<ListingModerationResponse> {
    return this.staff.hideListing(me, id, body.reason);
  }

  @Post('listings/:id/restore')
  @ApiEnvelope(201, ListingModerationResponse, { description: 'Shown again with the status it had' })
  @ApiErrorEnvelope(404, 'No such listing')
  @ApiErrorEnvelope(409, 'Not hidden, or hidden with its suspended seller')
  restore(@CurrentUser() me: User, @Param('id') id: string, @Body() body: OptionalReasonRequest): Promise<ListingModerationResponse> {
    return this.staff.restoreListing(me, id, body.reason);
  }

  @Post('listings/:id/close-case')
  @ApiEnvelope(201, ListingModerationResponse, {
    description: 'Upholds the hiding without an appeal: the case is closed, the owner told; they may then delete it',
  })
  @ApiErrorEnvelope(404, 'No such listing')
  @ApiErrorEnvelope(409, 'Not hidden by staff, case already closed, or an appeal waits in the inbox')
  closeCase(@CurrentUser() me: User, @Param('id') id: string, @Body() body: OptionalReasonRequest): Promise<ListingModerationResponse> {
    return this.staff.closeListingCase(me, id, body.reason);
  }

  @Post('listings/:id/feature')
  @ApiEnvelope(201, ListingModerationResponse)
  @ApiErrorEnvelope(400, 'Only a live listing can be featured')
  @ApiErrorEnvelope(404, 'No such listing')
  feature(@CurrentUser() me: User, @Param('id') id: string, @Body() body: FeatureRequest): Promise<ListingModerationResponse> {
    return this.staff.featureListing(me, id, body.featured);
  }

  @Post('reviews/:id/hide')
  @HttpCode(204)
  @ApiErrorEnvelope(404, 'No such review')
  @ApiErrorEnvelope(409, 'Already hidden')
  async hideReview(@CurrentUser() me: User, @Param('id') id: string, @Body() body: ReasonRequest): Promise<void> {
    await this.staff.hideReview(me, id, body.reason);
  }

  @Post('reviews/:id/restore')
  @HttpCode(204)
  @ApiErrorEnvelope(404, 'No such review')
  @ApiErrorEnvelope(409, 'Not hidden')
  async restoreReview(@CurrentUser() me: User, @Param('id') id: string, @Body() body: OptionalReasonRequest): Promise<void> {
    await this.staff.restoreReview(me, id, body.reason);
  }

  @Get('users/:id')
  @ApiEnvelope(200, AccountModerationResponse)
  @ApiErrorEnvelope(404, 'No such user')
  account(@Param('id') id: string): Promise<AccountModerationResponse> {
    return this.staff.account(id);
  }

  @Post('users/:id/suspend')
  @ApiEnvelope(201, AccountModerationResponse, { description: 'Suspended: sessions ended, listings hidden, sign-in refused' })
  @ApiErrorEnvelope(400, 'Your own account')
  @ApiErrorEnvelope(404, 'No such user')
  @ApiErrorEnvelope(409, 'Already suspended')
  suspend(@CurrentUser() me: User, @Param('id') id: string, @Body() body: ReasonRequest): Promise<AccountModerationResponse> {
    return this.staff.suspend(me, id, body.reason);
  }

  @Post('users/:id/unsuspend')
  @ApiEnvelope(201, AccountModerationResponse, { description: 'Sign-in allowed again; listings hidden with the suspension restored' })
  @ApiErrorEnvelope(404, 'No such user')
  @ApiErrorEnvelope(409, 'Not suspended')
  unsuspend(@CurrentUser() me: User, @Param('id') id: string, @Body() body: OptionalReasonRequest): Promise<AccountModerationResponse> {
    return this.staff.unsuspend(me, id, body.reason);
  }

  // ----- Queues -----

  @Get('queues')
  @ApiEnvelope(200, QueueDashboardResponse, { description: 'Counts per queue and the jobs that failed' })
  queuesOverview(): Promise<QueueDashboardResponse> {
    return this.queues.overview();
  }

  @Post('queues/:queue/jobs/:id/retry')
  @HttpCode(204)
  @ApiErrorEnvelope(404, 'No such queue or job')
  @ApiErrorEnvelope(409, 'The job has not failed')
  async retry(@CurrentUser() me: User, @Param('queue') queue: string, @Param('id') id: string): Promise<void> {
    await this.queues.retry(me, queue, id);
  }

  @Delete('queues/:queue/jobs/:id')
  @HttpCode(204)
  @ApiErrorEnvelope(404, 'No such queue or job')
  async removeJob(@CurrentUser() me: User, @Param('queue') queue: string, @Param('id') id: string): Promise<void> {
    await this.queues.remove(me, queue, id);
  }
}
