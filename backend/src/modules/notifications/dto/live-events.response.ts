import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Min } from 'class-validator';

export class LiveEventsRequest {
  @ApiProperty({ required: false, description: 'The last seq the client handled; absent: only latest_seq is returned' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value))
  @IsInt({ message: 'after must be a whole number' })
  @Min(0, { message: 'after must be a whole number' })
  after?: number;
}

export class LiveEvent {
  @ApiProperty({ description: 'Place in the user’s event log' })
  seq!: number;

  @ApiProperty({ example: 'NEW_LISTING', description: 'The socket event’s name' })
  type!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The socket event’s payload' })
  payload!: unknown;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export class LiveEventPage {
  @ApiProperty({ type: LiveEvent, isArray: true, description: 'Oldest first, at most 100; ask again from the last seq for more' })
  events!: LiveEvent[];

  @ApiProperty({ description: 'The newest seq given to the user' })
  latest_seq!: number;
}

export class HeartbeatSettings {
  @ApiProperty()
  ping_interval_ms!: number;

  @ApiProperty()
  ping_timeout_ms!: number;
}

export class RealtimeDiagnostics {
  @ApiProperty({ enum: ['memory', 'redis', 'postgres'], description: 'How events travel between processes' })
  bus!: string;

  @ApiProperty({ type: Number, nullable: true, description: 'The caller’s own connected sockets, in every web process' })
  your_sockets!: number | null;

  @ApiProperty({ type: HeartbeatSettings })
  heartbeat!: HeartbeatSettings;

  @ApiProperty()
  latest_seq!: number;

  @ApiProperty({ format: 'date-time' })
  server_time!: string;
}

export class PollingDiagnostics {
  @ApiProperty()
  polling_interval_ms!: number;

  @ApiProperty()
  page_size!: number;

  @ApiProperty()
  latest_seq!: number;

  @ApiProperty({ description: 'The caller’s events kept for catching up' })
  events_kept!: number;

  @ApiProperty()
  unread_notifications!: number;

  @ApiProperty({ format: 'date-time' })
  server_time!: string;
}
