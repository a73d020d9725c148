import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { ClientIp } from '../../common/client-ip.js';
import { NewsletterMessageResponse, NewsletterSubscribeRequest, NewsletterTokenRequest } from './dto/newsletter.dto.js';
import { NewsletterService } from './newsletter.service.js';

@ApiTags('newsletter')
@Controller('newsletter')
export class NewsletterController {
  constructor(@Inject(NewsletterService) private readonly newsletter: NewsletterService) {}

  /** Always the same answer for a valid address, on the list or not; the address is mailed a confirmation link. */
  @Post('subscriptions')
  @HttpCode(202)
  @ApiEnvelope(202, NewsletterMessageResponse, { description: 'Accepted; a mail goes to the address' })
  @ApiErrorEnvelope(400, 'The address is missing or invalid')
  @ApiErrorEnvelope(429, 'Too many sign-ups from this client; try again later (Retry-After)')
  async subscribe(@Body() body: NewsletterSubscribeRequest, @ClientIp() clientIp: string): Promise<NewsletterMessageResponse> {
    return { message: await this.newsletter.subscribe(body.email, clientIp) };
  }

  /** The link in the confirmation mail (the page /newsletter/confirm POSTs its token). */
  @Post('confirm')
  @HttpCode(200)
  @ApiEnvelope(200, NewsletterMessageResponse)
  @ApiErrorEnvelope(400, 'The link is unknown, used or expired')
  async confirm(@Body() body: NewsletterTokenRequest): Promise<NewsletterMessageResponse> {
    return { message: await this.newsletter.confirm(body.token) };
  }

  /** The link in every newsletter mail (the page /newsletter/unsubscribe POSTs its token). */
  @Post('unsubscribe')
  @HttpCode(200)
  @ApiEnvelope(200, NewsletterMessageResponse)
  @ApiErrorEnvelope(400, 'The link is unknown')
  async unsubscribe(@Body() body: NewsletterTokenRequest): Promise<NewsletterMessageResponse> {
    return { message: await this.newsletter.unsubscribe(body.token) };
  }
}
