import { api, hasSignedInHint } from '../../lib/api';
import { REQUEST_TIMEOUT_MS, settle } from '../listings/listings-api';

/** Wires one "Show number": visitors go to sign in; members get the number, or the server's reason why not. */
export function setupShowNumber(root: HTMLElement): void {
  const button = root.querySelector<HTMLButtonElement>('[data-show-number-button]');
  const phone = root.querySelector<HTMLAnchorElement>('[data-show-number-phone]');
  const error = root.querySelector<HTMLElement>('[data-show-number-error]');
  const id = root.dataset['user'] ?? '';
  const signIn = () => location.assign(root.dataset['signinHref'] ?? '/signin');
  if (!button || !phone || !error) return;

  button.addEventListener('click', async () => {
    if (!hasSignedInHint(document.cookie)) return signIn();
    button.disabled = true;
    const outcome = await settle<{ phone: string }>(() =>
      api.POST('/api/profile/public/{id}/phone', { params: { path: { id } }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    );
    button.disabled = false;
    if (outcome.ok) {
      phone.textContent = outcome.data.phone;
      phone.href = `tel:${outcome.data.phone.replace(/[^\d+]/g, '')}`;
      phone.hidden = false;
      button.hidden = true;
      error.hidden = true;
    } else if (outcome.status === 401) {
      signIn();
    } else {
      error.textContent = outcome.error;
      error.hidden = false;
    }
  });
}
