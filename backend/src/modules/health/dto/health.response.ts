import { ApiProperty } from '@nestjs/swagger';

export class HealthCheckEntry {
  @ApiProperty({ enum: ['database', 'queue', 'storage', 'mail'] })
  name!: string;

  @ApiProperty({ enum: ['up', 'down'] })
  status!: 'up' | 'down';

  @ApiProperty({ description: 'What was checked, or why it failed' })
  message!: string;

  @ApiProperty({ required: false, description: 'Extra figures, such as job counts per queue' })
  details?: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;
}

export class HealthResponse {
  @ApiProperty({ enum: ['ok'] })
  status!: 'ok';

  @ApiProperty({ type: [HealthCheckEntry] })
  checks!: HealthCheckEntry[];
}
