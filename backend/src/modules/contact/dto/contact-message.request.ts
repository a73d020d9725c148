import { ApiProperty } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsString, MaxLength, MinLength } from 'class-validator';
import { NoControlCharacters, SingleLine, Trim } from '../../../common/validation.js';

// Decorators apply bottom-up, so each field's rules run from the LAST line upwards and the first
// failure is reported (stopAtFirstError): "is required" sits lowest so it wins over format and
// length messages. Messages are SPEC §5 "Contact" (line and control-character rules are ours:
// name and subject reach mail headers, where a line break would forge a header line).
export class ContactMessageRequest {
  @ApiProperty({ maxLength: 100, example: 'Jane Farmer' })
  @Trim()
  @SingleLine('Name must be on one line', 'Name must not contain control characters')
  @MaxLength(100, { message: 'Name must be at most 100 characters' })
  @IsString({ message: 'Name must be text' })
  @IsNotEmpty({ message: 'Name is required' })
  name!: string;

  @ApiProperty({ maxLength: 254, example: 'jane@example.co.uk' })
  @Trim()
  @IsEmail({}, { message: 'Please enter a valid email address' })
  @MaxLength(254, { message: 'Email must be at most 254 characters' })
  @IsString({ message: 'Email must be text' })
  @IsNotEmpty({ message: 'Email is required' })
  email!: string;

  @ApiProperty({ maxLength: 200, example: 'Question about listing fees' })
  @Trim()
  @SingleLine('Subject must be on one line', 'Subject must not contain control characters')
  @MaxLength(200, { message: 'Subject must be at most 200 characters' })
  @IsString({ message: 'Subject must be text' })
  @IsNotEmpty({ message: 'Subject is required' })
  subject!: string;

  @ApiProperty({ minLength: 10, maxLength: 5000, example: 'Is it free to list a tractor for hire?' })
  @Trim()
  @NoControlCharacters('Message must not contain control characters')
  @MaxLength(5000, { message: 'Message must be at most 5000 characters' })
  @MinLength(10, { message: 'Message must be at least 10 characters' })
  @IsString({ message: 'Message must be text' })
  @IsNotEmpty({ message: 'Message is required' })
  message!: string;
}
