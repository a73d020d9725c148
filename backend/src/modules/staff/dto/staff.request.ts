import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsISO8601, IsOptional, Matches, Max, Min, ValidateIf } from 'class-validator';
import { TextField } from '../../../common/validation.js';
import { INBOX_KINDS, INBOX_STATUSES, STAFF_RULES } from '../../../contracts/staff.js';
import { IsUuid } from '../../../common/uuid.js';

const toNumber = ({ value }: { value: unknown }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value);

export class InboxQuery {
  @ApiProperty({ required: false, enum: INBOX_KINDS })
  @IsOptional()
  @IsIn(INBOX_KINDS, { message: `kind must be one of: ${INBOX_KINDS.join(', ')}` })
  kind?: string;

  @ApiProperty({ required: false, enum: INBOX_STATUSES, description: 'open (default): not archived' })
  @IsOptional()
  @IsIn(INBOX_STATUSES, { message: `status must be one of: ${INBOX_STATUSES.join(', ')}` })
  status?: string;

  @ApiProperty({ required: false, description: "A report's reason or feedback's category" })
  @IsOptional()
  @Matches(/^[a-z][a-z-]{0,39}$/, { message: 'category must be a category key such as scam or bug-report' })
  category?: string;

  @ApiProperty({ required: false, minimum: 1, maximum: 5, description: "Feedback's rating" })
  @IsOptional()
  @Transform(toNumber)
  @IsInt({ message: 'rating must be a whole number from 1 to 5' })
  @Min(1, { message: 'rating must be a whole number from 1 to 5' })
  @Max(5, { message: 'rating must be a whole number from 1 to 5' })
  rating?: number;

  @ApiProperty({ required: false, description: 'A staff member\'s id, or "me"' })
  @IsOptional()
  @ValidateIf((_, value) => value !== 'me')
  @IsUuid('assigned must be a staff member\'s id or "me"')
  assigned?: string;

  @ApiProperty({ required: false, format: 'date-time', description: 'next_before of the previous page' })
  @IsOptional()
  @IsISO8601({}, { message: 'before must be a date and time' })
  before?: string;
}

export class ReadRequest {
  @ApiProperty()
  @IsBoolean({ message: 'read must be true or false' })
  read!: boolean;
}

export class DecisionRequest {
  @ApiProperty({ enum: ['approve', 'decline'] })
  @IsIn(['approve', 'decline'], { message: 'decision must be approve or decline' })
  decision!: 'approve' | 'decline';

  @TextField({ ...STAFF_RULES.reason, optional: true }, { example: 'It names another member without their consent' })
  reason?: string;
}

export class ArchiveRequest {
  @ApiProperty()
  @IsBoolean({ message: 'archived must be true or false' })
  archived!: boolean;
}

export class AssignRequest {
  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null to unassign' })
  @ValidateIf((_, value) => value !== null)
  @IsUuid("staff_id must be a staff member's id or null")
  staff_id!: string | null;
}

export class ReplyRequest {
  @TextField(STAFF_RULES.reply, { example: 'Thank you for writing. We have looked into it and ...' })
  message!: string;
}

export class ReasonRequest {
  @TextField(STAFF_RULES.reason, { example: 'Livestock sold without movement documents' })
  reason!: string;
}

export class OptionalReasonRequest {
  @TextField({ ...STAFF_RULES.reason, optional: true, minLength: undefined })
  reason?: string;
}

export class FeatureRequest {
  @ApiProperty()
  @IsBoolean({ message: 'featured must be true or false' })
  featured!: boolean;
}
