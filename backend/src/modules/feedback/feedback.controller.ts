import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { ClientIp } from '../../common/client-ip.js';
import type { AuthenticatedRequest } from '../auth/access.js';
import { FeedbackRequest, FeedbackSubmittedResponse } from './dto/feedback.request.js';
import { FeedbackService } from './feedback.service.js';

@ApiTags('feedback')
@Controller('feedback')
export class FeedbackController {
  constructor(@Inject(FeedbackService) private readonly feedback: FeedbackService) {}

  /** Open to visitors; a signed-in user's feedback is recorded as theirs. */
  @Post()
  @HttpCode(201)
  @ApiEnvelope(201, FeedbackSubmittedResponse, { description: 'Stored; staff are told by e-mail' })
  @ApiErrorEnvelope(400, 'A field is missing or invalid; `fields` has one message per field, `error` joins them with commas')
  @ApiErrorEnvelope(429, 'Too much feedback from this client; try again later (Retry-After)')
  submit(
    @Body() body: FeedbackRequest,
    @ClientIp() clientIp: string,
    @Req() request: AuthenticatedRequest,
  ): Promise<FeedbackSubmittedResponse> {
    return this.feedback.submit(body, clientIp, request.auth?.user);
  }
}
