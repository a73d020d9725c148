import { showToast } from '../../stores/toasts';
import { changeStatus, deleteListing, hasSignedInHint, setSaved, type OwnerStatus } from './listings-api';

export const SAVE_TEXTS = {
  saved: 'Listing saved',
  unsaved: 'Listing unsaved',
  errorTitle: 'Error',
  errorText: 'Could not update saved status. Please try again.',
} as const;

/** "3 saves", "1 save". */
export function savesText(count: number): string {
  return `${count.toLocaleString('en-GB')} ${count === 1 ? 'save' : 'saves'}`;
}

/**
 * The listing page's buttons: Save (visitors go to sign in; disabled while pending; the spec's
 * toasts; the count from the server), Message Seller (the messaging issue brings the dialog),
 * the seller's own actions, and the gallery's thumbnails.
 */
export function setupListingPage(root: HTMLElement): void {
  const id = root.dataset['listing'] ?? '';
  const signedIn = hasSignedInHint();

  const save = root.querySelector<HTMLButtonElement>('[data-save-toggle]');
  const saves = root.querySelector<HTMLElement>('[data-saves-count]');
  save?.addEventListener('click', async () => {
    if (!signedIn) {
      location.assign(save.dataset['signinHref'] ?? '/signin');
      return;
    }
    const wanted = save.getAttribute('aria-pressed') !== 'true';
    save.disabled = true;
    const outcome = await setSaved(id, wanted);
    save.disabled = false;
    if (!outcome.ok) {
      if (outcome.status === 401) {
        location.assign(save.dataset['signinHref'] ?? '/signin');
        return;
      }
      showToast({ title: SAVE_TEXTS.errorTitle, description: SAVE_TEXTS.errorText, variant: 'destructive' });
      return;
    }
    save.setAttribute('aria-pressed', String(outcome.data.saved));
    save.textContent = outcome.data.saved ? 'Saved' : 'Save Listing';
    if (saves) {
      saves.dataset['savesCount'] = String(outcome.data.saves_count);
      saves.textContent = savesText(outcome.data.saves_count);
    }
    showToast({ title: outcome.data.saved ? SAVE_TEXTS.saved : SAVE_TEXTS.unsaved, variant: 'success' });
  });

  const message = root.querySelector<HTMLAnchorElement>('[data-message-seller]');
  const note = root.querySelector<HTMLElement>('[data-message-note]');
  message?.addEventListener('click', (event) => {
    event.preventDefault();
    if (!note) return;
    note.hidden = false;
    note.innerHTML = signedIn
      ? 'Messaging is coming soon: you will be able to message sellers from this page.'
      : `Please sign in to send messages. <a href="${message.getAttribute('href') ?? '/signin'}">Sign In</a>`;
  });

  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-status]')) {
    button.addEventListener('click', async () => {
      button.disabled = true;
      const outcome = await changeStatus(id, button.dataset['status'] as OwnerStatus);
      if (outcome.ok) {
        location.reload();
        return;
      }
      button.disabled = false;
      showToast({ title: 'Error', description: outcome.error, variant: 'destructive' });
    });
  }

  const dialog = root.querySelector<HTMLDialogElement>('[data-delete-dialog]');
  root.querySelector('[data-delete]')?.addEventListener('click', () => dialog?.showModal());
  root.querySelector('[data-delete-cancel]')?.addEventListener('click', () => dialog?.close());
  root.querySelector<HTMLButtonElement>('[data-delete-confirm]')?.addEventListener('click', async (event) => {
    const button = event.currentTarget as HTMLButtonElement;
    button.disabled = true;
    const outcome = await deleteListing(id);
    if (outcome.ok) {
      location.assign('/browse');
      return;
    }
    button.disabled = false;
    dialog?.close();
    showToast({ title: 'Error', description: outcome.error, variant: 'destructive' });
  });

  // Thumbnails switch the photo in place (without the script they jump to it).
  const slides = [...root.querySelectorAll<HTMLElement>('[data-slide]')];
  for (const thumb of root.querySelectorAll<HTMLAnchorElement>('[data-thumb]')) {
    thumb.addEventListener('click', (event) => {
      event.preventDefault();
      const index = Number(thumb.dataset['thumb']);
      slides.forEach((slide, i) => (slide.hidden = i !== index));
      root.querySelectorAll('[data-thumb]').forEach((other) => other.removeAttribute('aria-current'));
      thumb.setAttribute('aria-current', 'true');
    });
  }
  // SPEC §2: an image that fails to load is hidden (the placeholder box stays).
  for (const image of root.querySelectorAll<HTMLImageElement>('.listing-photo img, [data-avatar]')) {
    const hide = () => (image.hidden = true);
    if (image.complete && image.naturalWidth === 0 && image.currentSrc) hide();
    else image.addEventListener('error', hide);
  }
}
