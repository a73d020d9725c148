import { CONTACT_RULES, type ContactField } from '@contracts/contact';
import { validateTextFields } from '@contracts/text-rules';

export { CONTACT_RULES, type ContactField };
export type ContactValues = Record<ContactField, string>;
export type ContactErrors = Partial<Record<ContactField, string>>;

export const CONTACT_FIELDS = Object.keys(CONTACT_RULES) as ContactField[];

export function trimContact(values: ContactValues): ContactValues {
  return {
    name: values.name.trim(),
    email: values.email.trim(),
    subject: values.subject.trim(),
    message: values.message.trim(),
  };
}

/** The contact form's rules (the same the API applies); values are trimmed first. Empty result = valid. */
export function validateContact(values: ContactValues): ContactErrors {
  return validateTextFields(CONTACT_RULES, values);
}
