import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';
import { TextField } from '../../../common/validation.js';
import { STORY_NAMINGS, STORY_RULES, type StoryNaming, type StoryStatus } from '../../../contracts/stories.js';

export class StoryRequest {
  @TextField(STORY_RULES.story, { example: 'Let our 12 acres of grazing to a young farmer from the next village within a week.' })
  story!: string;

  @ApiProperty({ enum: STORY_NAMINGS, description: 'How the author is named under the story' })
  @IsIn(STORY_NAMINGS, { message: 'Please choose how you are named' })
  naming!: StoryNaming;
}

/** How many published stories to send (the home page shows 3). */
export class PublishedStoriesQuery {
  @ApiProperty({ required: false, description: '1 to 30 (default 30)' })
  @IsOptional()
  @Transform(({ value }: { value: unknown }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @Min(1, { message: 'limit must be at least 1' })
  @Max(30, { message: 'limit must be at most 30' })
  @IsInt({ message: 'limit must be a whole number' })
  limit?: number;
}

/** A published story, as visitors see it. */
export class PublishedStoryResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  story!: string;

  @ApiProperty({ description: 'As the author chose: full name, first name, or "A Fieldmarket member"' })
  author_name!: string;

  @ApiProperty({ description: 'What the deal was, e.g. "Sold: Massey Ferguson 5713"' })
  deal!: string;

  @ApiProperty({ format: 'date-time' })
  published_at!: string;
}

export class PublishedStoriesResponse {
  @ApiProperty({ type: [PublishedStoryResponse], description: 'Newest first' })
  stories!: PublishedStoryResponse[];
}

/** One of the author's own stories, with where it stands. */
export class OwnStoryResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  story!: string;

  @ApiProperty({ enum: STORY_NAMINGS })
  naming!: StoryNaming;

  @ApiProperty({ enum: ['pending', 'approved', 'declined'] })
  status!: StoryStatus;

  @ApiProperty({ type: String, nullable: true, description: 'Why our team declined it' })
  decline_reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export class OwnStoriesResponse {
  @ApiProperty({ description: 'Whether the member has done a deal here, so may tell a story' })
  eligible!: boolean;

  @ApiProperty({ type: [OwnStoryResponse], description: 'Newest first' })
  stories!: OwnStoryResponse[];
}
