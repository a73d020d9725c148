import { ApiProperty } from '@nestjs/swagger';

export class CategoryResponse {
  @ApiProperty({ example: 1 })
  id!: number;

  @ApiProperty({ example: 'Land' })
  name!: string;

  @ApiProperty({ example: 'land' })
  slug!: string;

  @ApiProperty({ example: 128, description: 'Live listings in the category (recounted at most once a minute)' })
  listing_count!: number;
}
