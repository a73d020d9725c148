import { describe, expect, it } from '@jest/globals';
import { trimContact, validateContact, type ContactValues } from './contact-validation';

const valid: ContactValues = {
  name: 'Jane Farmer',
  email: 'jane@example.co.uk',
  subject: 'Listing question',
  message: 'How do I list a field for grazing?',
};

describe('validateContact', () => {
  it('accepts a complete message', () => {
    expect(validateContact(valid)).toEqual({});
  });

  it('requires every field', () => {
    expect(validateContact({ name: '', email: '', subject: '', message: '' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Subject is required',
      message: 'Message is required',
    });
  });

  it('treats whitespace-only values as empty', () => {
    expect(validateContact({ name: '   ', email: ' \t', subject: '\n', message: '  ' })).toEqual({
      name: 'Name is required',
      email: 'Email is required',
      subject: 'Subject is required',
      message: 'Message is required',
    });
  });

  it.each(['jane', 'jane@', '@example.com', 'jane@example', 'jane doe@example.com', 'jane@exa mple.com'])(
    'rejects the malformed address %p',
    (email) => {
      expect(validateContact({ ...valid, email })).toEqual({ email: 'Please enter a valid email address' });
    },
  );

  it('accepts an address with surrounding spaces', () => {
    expect(validateContact({ ...valid, email: '  jane@example.co.uk  ' })).toEqual({});
  });

  it('needs at least 10 characters of message after trimming', () => {
    expect(validateContact({ ...valid, message: 'Too short' })).toEqual({
      message: 'Message must be at least 10 characters',
    });
    expect(validateContact({ ...valid, message: '   123456789   ' })).toEqual({
      message: 'Message must be at least 10 characters',
    });
    expect(validateContact({ ...valid, message: '1234567890' })).toEqual({});
  });

  it('enforces the maximum lengths', () => {
    expect(
      validateContact({
        name: 'n'.repeat(101),
        email: `${'e'.repeat(250)}@x.co`,
        subject: 's'.repeat(201),
        message: 'm'.repeat(5001),
      }),
    ).toEqual({
      name: 'Name must be at most 100 characters',
      email: 'Email must be at most 254 characters',
      subject: 'Subject must be at most 200 characters',
      message: 'Message must be at most 5000 characters',
    });
  });

  it('allows values exactly at the maximum lengths', () => {
    expect(
      validateContact({
        name: 'n'.repeat(100),
        email: `${'e'.repeat(249)}@x.co`,
        subject: 's'.repeat(200),
        message: 'm'.repeat(5000),
      }),
    ).toEqual({});
  });
});

describe('trimContact', () => {
  it('trims every field', () => {
    expect(trimContact({ name: ' a ', email: ' b ', subject: ' c ', message: ' d ' })).toEqual({
      name: 'a',
      email: 'b',
      subject: 'c',
      message: 'd',
    });
  });
});

describe('one-line fields', () => {
  it.each([
    ['name', 'Jane\nBcc: victim@example.com', 'Name must be on one line'],
    ['subject', 'Hello\r\nX-Header: forged', 'Subject must be on one line'],
    ['message', 'Line one\u0007 bell', 'Message must not contain control characters'],
  ] as const)('refuses %s with a line break or control character', (field, value, message) => {
    expect(validateContact({ ...valid, [field]: value })).toEqual({ [field]: message });
  });

  it('keeps line breaks in the message', () => {
    expect(validateContact({ ...valid, message: 'First line\nSecond line\n\tindented' })).toEqual({});
  });
});
