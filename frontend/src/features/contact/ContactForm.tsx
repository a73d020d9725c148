import { useRef, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { readFormFields } from '../../lib/form-values';
import { useHydrated } from '../../lib/use-hydrated';
import { useResetAfter } from '../../lib/use-reset-after';
import { showToast } from '../../stores/toasts';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { submitContact } from './contact-api';
import {
  CONTACT_FIELDS,
  trimContact,
  validateContact,
  type ContactErrors,
  type ContactField,
  type ContactValues,
} from './contact-validation';
import './contact-form.css';

/** How long the success banner shows before the form empties (spec §9). */
const SUCCESS_BANNER_MS = 3000;

const FIELDS: Readonly<Record<ContactField, { label: string; type?: string; autoComplete?: string; placeholder: string }>> = {
  name: { label: 'Name', autoComplete: 'name', placeholder: 'Your full name' },
  email: { label: 'Email', type: 'email', autoComplete: 'email', placeholder: 'you@example.com' },
  subject: { label: 'Subject', placeholder: 'What is your message about?' },
  message: { label: 'Message', placeholder: 'How can we help?' },
};

type Status = 'idle' | 'sending' | 'sent';

type FieldElement = HTMLInputElement | HTMLTextAreaElement;

function readValues(form: HTMLFormElement): ContactValues {
  return readFormFields(form, CONTACT_FIELDS);
}

/**
 * The contact page form: validates in the browser, sends to POST /api/contact, reports by toast.
 * Fields are uncontrolled so that anything typed before the island hydrates is kept.
 */
function ContactForm() {
  const [errors, setErrors] = useState<ContactErrors>({});
  const [status, setStatus] = useState<Status>('idle');
  const hydrated = useHydrated();
  const formRef = useRef<HTMLFormElement>(null);
  const fieldRefs = useRef<Partial<Record<ContactField, FieldElement | null>>>({});

  useResetAfter(status === 'sent', SUCCESS_BANNER_MS, () => {
    formRef.current?.reset();
    setErrors({});
    setStatus('idle');
  });

  const showErrors = (found: ContactErrors) => {
    setErrors(found);
    const first = CONTACT_FIELDS.find((field) => found[field]);
    if (first) fieldRefs.current[first]?.focus();
  };

  // Once a field shows an error, re-check it as the user fixes it.
  const onChange = (field: ContactField) => (event: ChangeEvent<FieldElement>) => {
    const form = event.currentTarget.form;
    if (!errors[field] || !form) return;
    const error = validateContact(readValues(form))[field];
    setErrors((current) => ({ ...current, [field]: error }));
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (status !== 'idle') return;
    const values = readValues(event.currentTarget);
    const found = validateContact(values);
    if (Object.keys(found).length > 0) {
      showErrors(found);
      return;
    }
    setErrors({});
    setStatus('sending');
    void send(trimContact(values));
  };

  const send = async (message: ContactValues) => {
    const outcome = await submitContact(message);
    switch (outcome.kind) {
      case 'sent':
        setStatus('sent');
        showToast({
          title: 'Message Sent Successfully!',
          description: "We'll get back to you within 24 hours.",
          variant: 'success',
        });
        return;
      case 'invalid':
        setStatus('idle');
        showErrors(outcome.fields);
        return;
      case 'rate-limited':
        setStatus('idle');
        showToast({ title: 'Failed to send message', description: outcome.message, variant: 'destructive' });
        return;
      case 'failed':
        setStatus('idle');
        showToast({ title: 'Failed to send message. Please try again.', variant: 'destructive' });
        return;
    }
  };

  return (
    <form
      ref={formRef}
      className="contact-form"
      aria-label="Contact form"
      aria-busy={status === 'sending'}
      noValidate
      onSubmit={onSubmit}
      data-testid="contact-form"
    >
      {CONTACT_FIELDS.map((field) => {
        const config = FIELDS[field];
        const id = `contact-${field}`;
        const errorId = `${id}-error`;
        const common = {
          id,
          name: field,
          className: 'field__input',
          placeholder: config.placeholder,
          required: true,
          'aria-invalid': errors[field] ? true : undefined,
          'aria-describedby': errors[field] ? errorId : undefined,
          onChange: onChange(field),
          ref: (element: FieldElement | null) => {
            fieldRefs.current[field] = element;
          },
        };
        return (
          <div className="field" key={field}>
            <label className="field__label" htmlFor={id}>
              {config.label}
            </label>
            {field === 'message' ? (
              <textarea {...common} rows={6} />
            ) : (
              <input {...common} type={config.type ?? 'text'} autoComplete={config.autoComplete} />
            )}
            {errors[field] && (
              <p className="field__error" id={errorId} data-testid={errorId}>
                {errors[field]}
              </p>
            )}
          </div>
        );
      })}

      <div role="status" className="contact-form__status">
        {status === 'sent' && (
          <p className="alert alert--success" data-testid="contact-success">
            Thank you! Your message has been sent. We'll get back to you within 24 hours.
          </p>
        )}
      </div>

      <button type="submit" className="btn btn--block" disabled={!hydrated || status !== 'idle'}>
        {status === 'sending' ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}

export default withErrorBoundary(ContactForm);
