import { ApiProperty } from '@nestjs/swagger';

export class CategoryResponse {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 'Land' })
  name!: string;

  @ApiProperty({ example: 'land' })
  slug!: string;
}
