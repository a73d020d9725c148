import { ApiProperty } from '@nestjs/swagger';

/** "degraded": everything answers but something needs an operator's eye (e.g. jobs failing); still a 200. */
export type HealthStatus = 'ok' | 'degraded' | 'down';

export class HealthCheckEntry {
  @ApiProperty({ enum: ['database', 'replica', 'queue', 'storage', 'mail', 'jobs'] })
  name!: string;

  /** "degraded": the dependency answers but its work is not going to plan (jobs failing or waiting). */
  @ApiProperty({ enum: ['up', 'degraded', 'down'] })
  status!: 'up' | 'degraded' | 'down';

  @ApiProperty({ example: 'Image storage is available' })
  message!: string;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;
}

export class HealthResponse {
  @ApiProperty({ enum: ['ok', 'degraded', 'down'] })
  status!: HealthStatus;

  @ApiProperty({ type: [HealthCheckEntry] })
  checks!: HealthCheckEntry[];
}

export class HealthCheckDetails extends HealthCheckEntry {
  @ApiProperty({ description: 'What was checked and where (paths, hosts, bucket), or the raw error' })
  description!: string;

  @ApiProperty({ required: false, description: 'Extra figures, such as job counts per queue' })
  details?: Record<string, unknown>;
}

export class HealthDetailsResponse {
  @ApiProperty({ enum: ['ok', 'degraded', 'down'] })
  status!: HealthStatus;

  @ApiProperty({ type: [HealthCheckDetails] })
  checks!: HealthCheckDetails[];
}

export class LivenessResponse {
  @ApiProperty({ enum: ['alive'] })
  status!: 'alive';

  @ApiProperty({ description: 'Seconds since the process started' })
  uptime_seconds!: number;
}

export class ReadinessResponse {
  @ApiProperty({ enum: ['ready'] })
  status!: 'ready';

  @ApiProperty({ description: 'Migrations applied to the database' })
  migrations_applied!: number;
}
