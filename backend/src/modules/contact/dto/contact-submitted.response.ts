import { ApiProperty } from '@nestjs/swagger';

export class ContactSubmittedResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'date-time' })
  receivedAt!: string;
}
