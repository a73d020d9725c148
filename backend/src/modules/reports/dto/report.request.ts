import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TextField } from '../../../common/validation.js';
import {
  REPORT_REASON_KEYS,
  REPORT_REASONS,
  REPORT_RULES,
  REPORT_TARGETS,
  type ReportReason,
  type ReportTarget,
} from '../../../contracts/staff.js';
import { IsUuid } from '../../../common/uuid.js';

export class ReportRequest {
  @ApiProperty({ enum: REPORT_TARGETS })
  @IsIn(REPORT_TARGETS, { message: 'Report a listing, a user or a review' })
  target_kind!: ReportTarget;

  @ApiProperty({ format: 'uuid' })
  @IsUuid('target_id must be the id of a listing, a user or a review')
  target_id!: string;

  @ApiProperty({
    enum: REPORT_REASON_KEYS,
    description: Object.entries(REPORT_REASONS)
      .map(([k, v]) => `${k}: ${v}`)
      .join('; '),
  })
  @IsIn(REPORT_REASON_KEYS, { message: 'Please choose a reason' })
  reason!: ReportReason;

  @TextField(REPORT_RULES.details, { example: 'The photos are from another advert.' })
  details?: string;
}

export class ReportReceivedResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  message!: string;
}
