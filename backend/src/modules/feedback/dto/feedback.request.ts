import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import {
  categoryError,
  FEEDBACK_CATEGORY_VALUES,
  FEEDBACK_RATING_MAX,
  FEEDBACK_RATING_MIN,
  FEEDBACK_TEXT_RULES,
  type FeedbackCategory,
  ratingError,
} from '../../../contracts/feedback.js';
import { TextField } from '../../../common/validation.js';

/** A field checked by one of the contract's functions, which gives the form's own message. */
function CheckedBy(name: string, error: (value: unknown) => string | undefined): PropertyDecorator {
  return ValidateBy({
    name,
    validator: { validate: (value: unknown) => error(value) === undefined, defaultMessage: (args) => error(args?.value) ?? '' },
  });
}

/** The feedback form's fields, as fields (SPEC §3 flattens them into one text block: see docs/spec-differences.md). */
export class FeedbackRequest {
  @TextField(FEEDBACK_TEXT_RULES.name, { example: 'Jane Farmer' })
  name!: string;

  @TextField(FEEDBACK_TEXT_RULES.email, { example: 'jane@example.co.uk' })
  email!: string;

  @applyDecorators(
    ApiProperty({ enum: FEEDBACK_CATEGORY_VALUES, example: 'feature-request' }),
    CheckedBy('feedbackCategory', categoryError),
  )
  category!: FeedbackCategory;

  @applyDecorators(
    ApiProperty({ type: 'integer', minimum: FEEDBACK_RATING_MIN, maximum: FEEDBACK_RATING_MAX, example: 4 }),
    CheckedBy('feedbackRating', ratingError),
  )
  rating!: number;

  @TextField(FEEDBACK_TEXT_RULES.message, { example: 'Saved searches would help me find hay in Devon.' })
  message!: string;
}

export class FeedbackSubmittedResponse {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'date-time' })
  receivedAt!: string;
}
