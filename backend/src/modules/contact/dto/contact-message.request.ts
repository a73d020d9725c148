import { CONTACT_RULES } from '../../../contracts/contact.js';
import { TextField } from '../../../common/validation.js';

/** The contact form's fields; rules and messages come from contracts/contact.ts, which the form also uses. */
export class ContactMessageRequest {
  @TextField(CONTACT_RULES.name, { example: 'Jane Farmer' })
  name!: string;

  @TextField(CONTACT_RULES.email, { example: 'jane@example.co.uk' })
  email!: string;

  @TextField(CONTACT_RULES.subject, { example: 'Question about listing fees' })
  subject!: string;

  @TextField(CONTACT_RULES.message, { example: 'Is it free to list a tractor for hire?' })
  message!: string;
}
