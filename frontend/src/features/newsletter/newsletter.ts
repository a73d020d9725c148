import { NEWSLETTER_RULES, NEWSLETTER_TEXTS } from '@contracts/newsletter';
import { textFieldError } from '@contracts/text-rules';
import { api } from '../../lib/api';
import { settle, timeoutSignal } from '../../lib/api-result';
import { showToast } from '../../stores/toasts';

/** The address's problem, in the sign-up form's words, or undefined. */
export function newsletterEmailError(email: string): string | undefined {
  return textFieldError(NEWSLETTER_RULES.email, email.trim());
}

/** Sends a Subscribe box: a toast says what happened; the box empties once the request is accepted. */
export async function subscribeToNewsletter(form: HTMLFormElement): Promise<void> {
  const input = form.elements.namedItem('email') as HTMLInputElement;
  const button = form.querySelector('button');
  const invalid = newsletterEmailError(input.value);
  if (invalid) {
    input.setAttribute('aria-invalid', 'true');
    input.focus();
    showToast({ title: invalid, variant: 'destructive' });
    return;
  }
  input.removeAttribute('aria-invalid');
  if (button) button.disabled = true;
  const result = await settle<{ message: string }>(
    api.POST('/api/newsletter/subscriptions', { body: { email: input.value.trim() }, signal: timeoutSignal() }),
    NEWSLETTER_TEXTS.failed,
  );
  if (button) button.disabled = false;
  if (result.ok) {
    form.reset();
    showToast({ title: 'Almost there!', description: result.data.message, variant: 'success' });
  } else {
    showToast({
      title: NEWSLETTER_TEXTS.failed,
      description: result.error === NEWSLETTER_TEXTS.failed ? undefined : result.error,
      variant: 'destructive',
    });
  }
}

/** The confirm and unsubscribe pages: POSTs the link's token (a GET that changes state would be followed by link scanners). */
export async function followNewsletterLink(kind: 'confirm' | 'unsubscribe', token: string): Promise<{ ok: boolean; message: string }> {
  const invalid = kind === 'confirm' ? NEWSLETTER_TEXTS.confirmLinkInvalid : NEWSLETTER_TEXTS.unsubscribeLinkInvalid;
  if (!/^[\w-]{10,200}$/.test(token)) return { ok: false, message: invalid };
  const path = kind === 'confirm' ? '/api/newsletter/confirm' : '/api/newsletter/unsubscribe';
  const result = await settle<{ message: string }>(api.POST(path, { body: { token }, signal: timeoutSignal() }), invalid);
  return result.ok ? { ok: true, message: result.data.message } : { ok: false, message: result.error };
}
