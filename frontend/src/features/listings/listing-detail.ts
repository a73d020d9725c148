import { showToast } from '../../stores/toasts';
import { api } from '../../lib/api';
import { countOf } from '../../lib/format';
import { setupListingMessaging } from '../messages/listing-messaging';
import { imageHtml } from './listing-card';
import {
  appealListing,
  changeStatus,
  deleteListing,
  hasSignedInHint,
  REQUEST_TIMEOUT_MS,
  setSaved,
  settle,
  type ListingDetail,
  type OwnerStatus,
} from './listings-api';

/** The `sizes` of the gallery's photos and thumbnails; the page renders them with the same. */
export const GALLERY_SIZES = { slide: '(min-width: 1024px) 66vw, 100vw', thumb: '6rem' } as const;

/** How often, and for how long, a page with photos still processing asks whether they are ready. */
const PHOTO_POLL = { intervalMs: 2_000, attempts: 90 } as const;

export const SAVE_TEXTS = {
  saved: 'Listing saved',
  unsaved: 'Listing unsaved',
  errorTitle: 'Error',
  errorText: 'Could not update saved status. Please try again.',
} as const;

/**
 * The listing page's buttons: Save (visitors go to sign in; disabled while pending; the spec's
 * toasts; the count from the server), Message Seller and Book Now (features/messages),
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
      saves.textContent = countOf(outcome.data.saves_count, 'save');
    }
    showToast({ title: outcome.data.saved ? SAVE_TEXTS.saved : SAVE_TEXTS.unsaved, variant: 'success' });
  });

  setupListingMessaging(root, { signedIn });

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

  const appealForm = root.querySelector<HTMLFormElement>('[data-appeal-form]');
  appealForm?.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = appealForm.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    const error = appealForm.querySelector<HTMLElement>('[data-appeal-error]')!;
    button.disabled = true;
    const outcome = await appealListing(id, new FormData(appealForm).get('text')?.toString() ?? '');
    if (outcome.ok) {
      location.reload();
      return;
    }
    button.disabled = false;
    error.textContent = outcome.error;
    error.hidden = false;
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
  hideBrokenImages(root);
  void swapInProcessedPhotos(root, id);
}

/** SPEC §2: an image that fails to load is hidden (the placeholder box stays). */
function hideBrokenImages(root: ParentNode): void {
  for (const image of root.querySelectorAll<HTMLImageElement>('.listing-photo img, [data-avatar]')) {
    const hide = () => (image.hidden = true);
    if (image.complete && image.naturalWidth === 0 && image.currentSrc) hide();
    else image.addEventListener('error', hide);
  }
}

/**
 * Photos are processed in the background for a second or two each after upload, so a seller who
 * opens a listing straight after publishing sees placeholders. While any is shown, the page asks
 * the API every few seconds and puts each photo in its place as soon as it is ready.
 */
async function swapInProcessedPhotos(root: HTMLElement, id: string): Promise<void> {
  const processing = () => root.querySelectorAll('[data-gallery] .listing-photo--processing').length > 0;
  for (let attempt = 0; attempt < PHOTO_POLL.attempts && processing(); attempt += 1) {
    await new Promise((resolve) => setTimeout(resolve, PHOTO_POLL.intervalMs));
    const outcome = await settle<ListingDetail>(() =>
      api.GET('/api/listings/{id}', { params: { path: { id } }, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
    );
    if (!outcome.ok) continue;
    const listing = outcome.data;
    listing.images.forEach((image, index) => {
      if (image.status === 'processing') return;
      const places: Array<[string, string, string, boolean]> = [
        [`[data-slide="${index}"]`, `${listing.title}, photo ${index + 1}`, GALLERY_SIZES.slide, index === 0],
        [`[data-thumb="${index}"]`, '', GALLERY_SIZES.thumb, false],
      ];
      for (const [selector, alt, sizes, eager] of places) {
        const placeholder = root.querySelector(`${selector} > .listing-photo--processing`);
        if (!placeholder) continue;
        placeholder.outerHTML = imageHtml(image, alt, sizes, eager);
        const container = root.querySelector(selector);
        if (container) hideBrokenImages(container);
      }
    });
  }
}
