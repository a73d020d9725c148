import { api } from '../../lib/api';
import { interpretContactResponse, type ContactOutcome } from './contact-response';
import type { ContactValues } from './contact-validation';

const REQUEST_TIMEOUT_MS = 15_000;

/** POSTs the message; network errors and timeouts come back as a 'failed' outcome. */
export async function submitContact(values: ContactValues): Promise<ContactOutcome> {
  try {
    const { data, error, response } = await api.POST('/api/contact', {
      body: values,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    return interpretContactResponse(response.status, data ?? error);
  } catch (error) {
    console.error('Failed to send contact message', error);
    return { kind: 'failed' };
  }
}
