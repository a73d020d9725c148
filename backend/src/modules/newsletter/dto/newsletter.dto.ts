import { ApiProperty } from '@nestjs/swagger';
import { NEWSLETTER_RULES } from '../../../contracts/newsletter.js';
import { TextField } from '../../../common/validation.js';

export class NewsletterSubscribeRequest {
  @TextField(NEWSLETTER_RULES.email, { example: 'jane@example.co.uk' })
  email!: string;
}

/** The token from a mailed link (confirm or unsubscribe). */
export class NewsletterTokenRequest {
  @TextField({ label: 'Token', maxLength: 200, singleLine: true }, { example: 'q3Xv0s8kz3bYt2Jm2VqH0nqTqW7g2nHk3x1fN0l9c5A' })
  token!: string;
}

export class NewsletterMessageResponse {
  @ApiProperty()
  message!: string;
}
