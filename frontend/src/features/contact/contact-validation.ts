export type ContactField = 'name' | 'email' | 'subject' | 'message';
export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

export const CONTACT_FIELDS: readonly ContactField[] = ['name', 'email', 'subject', 'message'];

/** Maximum lengths, shared with the API (openapi.yaml ContactMessageRequest). */
export const CONTACT_MAX_LENGTHS: Readonly<Record<ContactField, number>> = {
  name: 100,
  email: 254,
  subject: 200,
  message: 5000,
};

export const MESSAGE_MIN_LENGTH = 10;

const LABELS: Readonly<Record<ContactField, string>> = {
  name: 'Name',
  email: 'Email',
  subject: 'Subject',
  message: 'Message',
};

/** Something@something.something, without spaces: a typo check, not a deliverability check. */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function trimContact(values: ContactValues): ContactValues {
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    subject: values.subject.trim(),
    message: values.message.trim(),
  };
}

/** The contact form's rules (spec §5 Contact); values are trimmed first. Empty result = valid. */
export function validateContact(values: ContactValues): ContactErrors {
  const trimmed = trimContact(values);
  const errors: ContactErrors = {};
  for (const field of CONTACT_FIELDS) {
    const error = fieldError(field, trimmed[field]);
    if (error) errors[field] = error;
  }
  return errors;
}

function fieldError(field: ContactField, value: string): string | undefined {
  if (value === '') return `${LABELS[field]} is required`;
  if (value.length > CONTACT_MAX_LENGTHS[field]) {
    return `${LABELS[field]} must be at most ${CONTACT_MAX_LENGTHS[field]} characters`;
  }
  if (field === 'email' && !EMAIL_PATTERN.test(value)) return 'Please enter a valid email address';
  if (field === 'message' && value.length < MESSAGE_MIN_LENGTH) {
    return `Message must be at least ${MESSAGE_MIN_LENGTH} characters`;
  }
  return undefined;
}
