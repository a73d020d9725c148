import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { ClientIp } from '../../common/client-ip.js';
import { ContactService } from './contact.service.js';
import { ContactMessageRequest } from './dto/contact-message.request.js';
import { ContactSubmittedResponse } from './dto/contact-submitted.response.js';

@ApiTags('contact')
@Controller('contact')
export class ContactController {
  constructor(@Inject(ContactService) private readonly contact: ContactService) {}

  @Post()
  @HttpCode(201)
  @ApiEnvelope(201, ContactSubmittedResponse, { description: 'Stored; delivery e-mails are queued' })
  @ApiErrorEnvelope(400, 'A field is missing or invalid; `fields` has one message per field')
  @ApiErrorEnvelope(429, 'Too many messages from this client; try again later')
  submit(@Body() body: ContactMessageRequest, @ClientIp() clientIp: string): Promise<ContactSubmittedResponse> {
    return this.contact.submit(body, clientIp);
  }
}
