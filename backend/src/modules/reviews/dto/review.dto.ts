import { ApiProperty } from '@nestjs/swagger';
import { applyDecorators } from '@nestjs/common';
import { IsOptional, IsString, ValidateBy } from 'class-validator';
import { TextField } from '../../../common/validation.js';
import { IsUuid } from '../../../common/uuid.js';
import { REVIEW_RULES, REVIEW_STARS_MAX, REVIEW_STARS_MIN, starsError } from '../../../contracts/reviews.js';

/** 1 to 5 whole stars, with the form's own message. */
function Stars(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'integer', minimum: REVIEW_STARS_MIN, maximum: REVIEW_STARS_MAX, example: 5 }),
    ValidateBy({
      name: 'reviewStars',
      validator: { validate: (value: unknown) => starsError(value) === undefined, defaultMessage: (args) => starsError(args?.value) ?? '' },
    }),
  );
}

export class ReviewRequest {
  @ApiProperty({ format: 'uuid', description: 'The conversation in which the deal was done; the review is of its other person' })
  @IsUuid('conversation_id must be the id of one of your conversations')
  conversation_id!: string;

  @Stars()
  stars!: number;

  @TextField(REVIEW_RULES.text, { example: 'Collected the ewes as agreed; healthy, well handled and the paperwork was in order.' })
  text!: string;
}

export class ReviewEditRequest {
  @Stars()
  stars!: number;

  @TextField(REVIEW_RULES.text, { example: 'Collected the ewes as agreed; healthy, well handled and the paperwork was in order.' })
  text!: string;
}

export class ReviewReplyRequest {
  @TextField(REVIEW_RULES.reply, { example: 'Thank you, good to deal with you.' })
  reply!: string;
}

export class ReviewsQuery {
  @ApiProperty({ required: false, description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString({ message: 'cursor must be text' })
  cursor?: string;
}

export class EligibilityQuery {
  @ApiProperty({ format: 'uuid' })
  @IsUuid('conversation_id must be the id of one of your conversations')
  conversation_id!: string;
}

export class ReviewAuthor {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null once the author deleted their account' })
  id!: string | null;

  @ApiProperty({ description: '"Deleted user" once the author deleted their account' })
  name!: string;
}

export class ReviewReplyView {
  @ApiProperty()
  text!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  edited_at!: string | null;
}

/** A review as anyone may read it: never an e-mail address or a phone number. */
export class ReviewView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'uuid', description: 'The member reviewed' })
  reviewed_id!: string;

  @ApiProperty({ type: ReviewAuthor })
  author!: ReviewAuthor;

  @ApiProperty({ minimum: 1, maximum: 5 })
  stars!: number;

  @ApiProperty()
  text!: string;

  @ApiProperty({ description: 'The listing the deal was about, as it was titled then' })
  listing_title!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  edited_at!: string | null;

  @ApiProperty({ type: ReviewReplyView, nullable: true })
  reply!: ReviewReplyView | null;

  @ApiProperty({ description: 'Whether the signed-in reader may change the review now (its author, within 48 hours)' })
  can_edit!: boolean;

  @ApiProperty({ description: 'Whether the signed-in reader may write or change the reply now (the member reviewed)' })
  can_reply!: boolean;
}

export class ReviewsPage {
  @ApiProperty({ description: 'Shown reviews of the member' })
  count!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Average stars to one decimal; null under 3 reviews' })
  average!: number | null;

  @ApiProperty({ type: [ReviewView], description: 'Newest first' })
  reviews!: ReviewView[];

  @ApiProperty({ type: String, nullable: true, description: 'Pass as cursor for the next page; null on the last' })
  next_cursor!: string | null;
}

export class ReviewEligibility {
  @ApiProperty({ description: 'Whether you may write a review in this conversation now' })
  can_review!: boolean;

  @ApiProperty({ type: String, nullable: true, description: 'Why not yet (or not at all), when you may not' })
  reason!: string | null;

  @ApiProperty({ description: 'The member you would review' })
  reviewed_name!: string;

  @ApiProperty({ type: String, format: 'uuid', description: 'The member you would review' })
  reviewed_id!: string;

  @ApiProperty()
  listing_title!: string;

  @ApiProperty({ type: ReviewView, nullable: true, description: 'Your review of them for this listing, once written' })
  review!: ReviewView | null;
}
