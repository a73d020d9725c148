import { ApiProperty } from '@nestjs/swagger';
import { INBOX_KINDS, type InboxKind } from '../../../contracts/staff.js';
import { LISTING_STATUSES, type ListingStatus } from '../../../contracts/listings.js';

export class InboxPerson {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  email!: string;
}

export class InboxTarget {
  @ApiProperty({ enum: ['listing', 'user', 'review'] })
  kind!: 'listing' | 'user' | 'review';

  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  label!: string;
}

export class InboxItemResponse {
  @ApiProperty({ enum: INBOX_KINDS })
  kind!: InboxKind;

  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  subject!: string;

  @ApiProperty({ type: InboxPerson, nullable: true })
  from!: InboxPerson | null;

  @ApiProperty()
  preview!: string;

  @ApiProperty({ type: String, nullable: true })
  category!: string | null;

  @ApiProperty({ type: String, nullable: true })
  category_label!: string | null;

  @ApiProperty({ type: Number, nullable: true })
  rating!: number | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty()
  read!: boolean;

  @ApiProperty()
  archived!: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  assigned_to_id!: string | null;

  @ApiProperty({ type: String, nullable: true })
  assigned_to_name!: string | null;

  @ApiProperty({ format: 'date-time', description: 'When the stated response time runs out' })
  due_at!: string;

  @ApiProperty()
  overdue!: boolean;

  @ApiProperty({ type: InboxTarget, nullable: true })
  target!: InboxTarget | null;
}

export class InboxPage {
  @ApiProperty({ type: [InboxItemResponse] })
  items!: InboxItemResponse[];

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Pass as `before` for the next page' })
  next_before!: string | null;
}

export class InboxField {
  @ApiProperty()
  label!: string;

  @ApiProperty()
  value!: string;
}

export class InboxReplyResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  staff_name!: string;

  @ApiProperty()
  to!: string;

  @ApiProperty()
  subject!: string;

  @ApiProperty()
  body!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'null while the mail job has not sent it' })
  sent_at!: string | null;
}

export class AuditEntryResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  staff_name!: string;

  @ApiProperty({ example: 'listing.hide' })
  action!: string;

  @ApiProperty()
  target_kind!: string;

  @ApiProperty()
  target_id!: string;

  @ApiProperty({ type: String, nullable: true })
  reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

/** A reported review as it is now, for staff to read before hiding or restoring it. */
export class ReviewModerationResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ minimum: 1, maximum: 5 })
  stars!: number;

  @ApiProperty()
  text!: string;

  @ApiProperty({ description: 'Its author, or "Deleted user"' })
  author_name!: string;

  @ApiProperty({ format: 'uuid', description: 'The member reviewed' })
  reviewed_id!: string;

  @ApiProperty({ description: 'Hidden by staff: out of lists and averages' })
  hidden!: boolean;
}

export class ListingModerationResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty({ enum: LISTING_STATUSES })
  status!: ListingStatus;

  @ApiProperty()
  featured!: boolean;

  @ApiProperty({ format: 'uuid' })
  seller_id!: string;

  @ApiProperty()
  seller_name!: string;

  @ApiProperty({ type: String, nullable: true })
  removal_reason!: string | null;

  @ApiProperty()
  removed_with_seller!: boolean;

  @ApiProperty({ description: 'Staff upheld the hiding and closed its case: the owner may delete it, no longer appeal' })
  case_closed!: boolean;

  @ApiProperty({ description: 'The owner has appealed this hiding and it waits for a decision (in the Appeals inbox)' })
  appeal_pending!: boolean;
}

export class AccountModerationResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  email!: string;

  @ApiProperty({ enum: ['user', 'staff'] })
  role!: 'user' | 'staff';

  @ApiProperty()
  two_factor!: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  suspended_at!: string | null;

  @ApiProperty({ type: String, nullable: true })
  suspension_reason!: string | null;
}

export class InboxDecisionResponse {
  @ApiProperty({ enum: ['pending', 'approved', 'declined'] })
  state!: 'pending' | 'approved' | 'declined';

  @ApiProperty({ type: String, nullable: true, description: 'Given with a decline; sent to the author' })
  reason!: string | null;
}

export class InboxItemDetailResponse extends InboxItemResponse {
  @ApiProperty()
  body!: string;

  @ApiProperty({ type: [InboxField] })
  fields!: InboxField[];

  @ApiProperty({ type: [InboxReplyResponse] })
  replies!: InboxReplyResponse[];

  @ApiProperty({ type: [AuditEntryResponse], description: 'Staff actions on this item and on what it reports' })
  audit!: AuditEntryResponse[];

  @ApiProperty({ type: ListingModerationResponse, nullable: true, description: 'The reported listing as it is now' })
  listing!: ListingModerationResponse | null;

  @ApiProperty({ type: ReviewModerationResponse, nullable: true, description: 'The reported review as it is now' })
  review!: ReviewModerationResponse | null;

  @ApiProperty({ type: AccountModerationResponse, nullable: true, description: 'The reported person as they are now' })
  account!: AccountModerationResponse | null;

  @ApiProperty({ type: InboxDecisionResponse, nullable: true, description: 'For an item staff approve or decline (a success story)' })
  decision!: InboxDecisionResponse | null;
}

export class WaitingCountResponse {
  @ApiProperty({ enum: INBOX_KINDS })
  kind!: InboxKind;

  @ApiProperty({ description: 'Not archived' })
  open!: number;

  @ApiProperty()
  unread!: number;

  @ApiProperty({ description: 'Open past the stated response time' })
  overdue!: number;

  @ApiProperty({ description: 'The stated response time' })
  response_hours!: number;
}

export class InboxSummaryResponse {
  @ApiProperty({ type: [WaitingCountResponse] })
  kinds!: WaitingCountResponse[];
}

export class StaffMemberResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  is_me!: boolean;
}

export class QueueCountsResponse {
  @ApiProperty()
  queue!: string;

  @ApiProperty()
  waiting!: number;

  @ApiProperty()
  active!: number;

  @ApiProperty()
  delayed!: number;

  @ApiProperty()
  failed!: number;

  @ApiProperty()
  completed!: number;
}

export class FailedJobResponse {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  queue!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'The last error' })
  error!: string;

  @ApiProperty()
  attempts!: number;

  @ApiProperty({ enum: ['failed', 'retrying'], description: 'retrying: failed and waiting for its next attempt' })
  state!: 'failed' | 'retrying';

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  failed_at!: string | null;
}

export class QueueDashboardResponse {
  @ApiProperty({ enum: ['redis', 'postgres'] })
  backend!: 'redis' | 'postgres';

  @ApiProperty({ type: [QueueCountsResponse] })
  queues!: QueueCountsResponse[];

  @ApiProperty({ type: [FailedJobResponse] })
  failed!: FailedJobResponse[];
}
