import { ACCOUNT_TEXTS } from '../../../../backend/src/contracts/account';
import { CATEGORIES } from '../../../../backend/src/contracts/categories';
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '../../../../backend/src/contracts/images';
import { LISTING_TEXTS, PRICE_UNITS, VAT_OPTIONS } from '../../../../backend/src/contracts/listings';
import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { formatListingPrice } from '../../lib/listing-format';
import { escapeHtml } from '../listings/listing-card';
import { hasSignedInHint, REQUEST_TIMEOUT_MS, settle, signInHref, SITE_HEADERS, type ListingDetail } from '../listings/listings-api';
import { setupPlacePicker } from '../listings/place-picker';
import { uploadPhoto } from './upload';
import {
  DESCRIPTION_MAX,
  draftFields,
  EMPTY_DRAFT,
  fieldOfApi,
  fileProblem,
  joinErrors,
  listingPayload,
  moved,
  parsePrice,
  priceUnits,
  restoreDraft,
  stepOf,
  STEPS,
  validateDraft,
  withType,
  type ListingDraft,
} from './wizard-logic';

const REDIRECT_AFTER_MS = 2000;
export const SUBMIT_FAILED = 'Failed to submit listing. Please try again.';
export const UPLOADS_PENDING = 'Please wait until your photos have finished uploading.';

/** A photo on the page: uploaded (has an id) or on its way (progress), with a preview when we have one. */
interface Photo {
  key: number;
  name: string;
  id?: string;
  preview?: string;
  progress: number;
  error?: string;
  abort?: () => void;
}

/**
 * The four-step wizard (SPEC §2, §5). Every change is kept in localStorage (uploaded photos by
 * id), so a reload or a dropped connection loses nothing; ?edit=<id> edits a listing (PUT).
 */
export function setupWizard(root: HTMLElement): void {
  const editId = new URLSearchParams(location.search).get('edit') ?? '';
  if (!hasSignedInHint()) {
    location.replace(signInHref(location.pathname + location.search));
    return;
  }
  const form = root.querySelector<HTMLFormElement>('[data-wizard-form]');
  if (!form) return;
  const $ = <T extends Element>(selector: string) => root.querySelector<T>(selector);
  const banner = $<HTMLElement>('[data-wizard-errors]');
  const photoList = $<HTMLOListElement>('[data-photos]');
  const fileInput = $<HTMLInputElement>('[data-file-input]');
  const previous = $<HTMLButtonElement>('[data-previous]');
  const next = $<HTMLButtonElement>('[data-next]');
  const publish = $<HTMLButtonElement>('[data-publish]');
  const counter = $<HTMLElement>('[data-counter]');
  const draftNote = $<HTMLElement>('[data-draft-note]');
  const storageKey = editId ? `fm_listing_draft:edit:${editId}` : 'fm_listing_draft';

  let draft: ListingDraft = { ...EMPTY_DRAFT };
  let photos: Photo[] = [];
  let photoKey = 0;
  const previews = new Map<string, string>();
  let busy = false;
  let redirectTimer: ReturnType<typeof setTimeout> | undefined;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;

  const input = (name: string) => form.elements.namedItem(name) as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement | null;

  // ----- keeping the draft -----
  let finished = false;
  const writeDraft = () => {
    clearTimeout(saveTimer);
    if (finished) return;
    try {
      localStorage.setItem(storageKey, JSON.stringify(draft));
      if (draftNote) draftNote.textContent = 'Draft saved on this device';
    } catch {
      // Storage full or refused: the form still works, only the draft is not kept.
    }
  };
  // Typing is written a moment later; leaving the page writes at once.
  const persist = () => {
    clearTimeout(saveTimer);
    saveTimer = setTimeout(writeDraft, 250);
  };
  window.addEventListener('pagehide', writeDraft);
  const syncImages = () => {
    draft = { ...draft, images: photos.filter((photo) => photo.id).map((photo) => ({ id: photo.id as string, name: photo.name })) };
  };

  // ----- showing the draft -----
  const showFieldsForType = () => {
    const rent = draft.type === 'rent';
    const category = $<HTMLElement>('[data-category-field]');
    const subcategory = $<HTMLElement>('[data-subcategory-field]');
    if (category) category.hidden = rent;
    if (subcategory) subcategory.hidden = !rent;
    const units = $<HTMLSelectElement>('[data-price-units]');
    if (units) {
      units.innerHTML = priceUnits(draft.type)
        .map((unit) => `<option value="${unit}">${escapeHtml(PRICE_UNITS[unit as keyof typeof PRICE_UNITS])}</option>`)
        .join('');
      units.value = draft.price_unit;
    }
    const groups = rent ? [draft.subcategory, 'rentals'] : [draft.category];
    root.querySelectorAll<HTMLElement>('[data-attributes]').forEach((group) => {
      group.hidden = !groups.includes(group.dataset['attributes'] ?? '');
    });
  };
  const visibleAttributeInputs = () =>
    [...root.querySelectorAll<HTMLElement>('[data-attributes]:not([hidden])')].flatMap((group) => [
      ...group.querySelectorAll<HTMLInputElement | HTMLSelectElement>('[data-attribute]'),
    ]);
  const updateCounter = () => {
    if (counter) counter.textContent = `${draft.description.length}/${DESCRIPTION_MAX} characters`;
  };
  const fillForm = () => {
    form.querySelectorAll<HTMLInputElement>('[name="type"]').forEach((radio) => (radio.checked = radio.value === draft.type));
    for (const name of ['title', 'category', 'subcategory', 'price', 'vat', 'location', 'place_id', 'description'] as const) {
      const element = input(name);
      if (element) element.value = draft[name];
    }
    showFieldsForType();
    for (const element of visibleAttributeInputs()) element.value = draft.attributes[element.dataset['attribute'] ?? ''] ?? '';
    updateCounter();
  };
  const readForm = () => {
    const value = (name: string) => input(name)?.value ?? '';
    const attributes: Record<string, string> = {};
    for (const element of visibleAttributeInputs())
      if (element.value !== '') attributes[element.dataset['attribute'] ?? ''] = element.value;
    draft = {
      ...draft,
      title: value('title'),
      category: draft.type === 'rent' ? 'rentals' : value('category'),
      subcategory: draft.type === 'rent' ? value('subcategory') : '',
      price: value('price'),
      price_unit: value('price_unit') || draft.price_unit,
      vat: value('vat') || draft.vat,
      location: value('location'),
      place_id: value('place_id'),
      description: value('description').slice(0, DESCRIPTION_MAX),
      attributes,
    };
  };

  const photoHtml = (photo: Photo, index: number) => {
    const preview = photo.preview ?? (photo.id ? previews.get(photo.id) : undefined);
    const picture = preview
      ? `<img src="${escapeHtml(preview)}" alt="" width="160" height="120">`
      : `<span class="listing-photo listing-photo--processing" aria-hidden="true">${photo.id ? 'Uploaded' : ''}</span>`;
    const status = photo.error
      ? `<p class="field__error" role="alert">${escapeHtml(photo.error)}</p>`
      : photo.id
        ? index === 0
          ? '<span class="badge wizard__main">Main photo</span>'
          : ''
        : `<progress max="100" value="${Math.round(photo.progress * 100)}" aria-label="Uploading ${escapeHtml(photo.name)}"></progress><span class="wizard__progress">${Math.round(photo.progress * 100)}%</span>`;
    return `<li class="wizard__photo" data-photo="${photo.key}">
<div class="wizard__thumb">${picture}</div>
<div class="wizard__photo-body"><p class="wizard__photo-name">${escapeHtml(photo.name)}</p>${status}
<div class="wizard__photo-actions">
<button type="button" class="btn btn--small btn--ghost" data-move="-1" ${index === 0 ? 'disabled' : ''} aria-label="Move ${escapeHtml(photo.name)} earlier">←</button>
<button type="button" class="btn btn--small btn--ghost" data-move="1" ${index === photos.length - 1 ? 'disabled' : ''} aria-label="Move ${escapeHtml(photo.name)} later">→</button>
${index === 0 ? '' : '<button type="button" class="btn btn--small btn--ghost" data-main>Make main photo</button>'}
<button type="button" class="btn btn--small btn--ghost text-danger" data-remove>Remove</button>
</div></div></li>`;
  };
  const renderPhotos = () => {
    if (photoList) photoList.innerHTML = photos.map(photoHtml).join('');
  };
  const updatePhotoProgress = (photo: Photo) => {
    const item = photoList?.querySelector(`[data-photo="${photo.key}"]`);
    const bar = item?.querySelector('progress');
    const text = item?.querySelector('.wizard__progress');
    if (bar) bar.value = Math.round(photo.progress * 100);
    if (text) text.textContent = `${Math.round(photo.progress * 100)}%`;
  };

  // ----- the declaration (asked before a person's first listing) -----
  const declaration = $<HTMLElement>('[data-declaration]');
  const overEighteen = () => input('confirm_over_18') as HTMLInputElement | null;
  let askDeclaration = false;
  const askForDeclaration = () => {
    askDeclaration = true;
    if (declaration) declaration.hidden = false;
  };
  const declared = () => askDeclaration && overEighteen()?.checked === true;
  /** What is wrong with the form now, as publishing would find it. */
  const currentErrors = (): Record<string, string | undefined> => {
    const errors: Record<string, string | undefined> = validateDraft(draft);
    if (photos.some((photo) => !photo.id && !photo.error)) errors['images'] = UPLOADS_PENDING;
    if (askDeclaration && !declared()) errors['confirm_over_18'] = LISTING_TEXTS.overEighteenRequired;
    return errors;
  };

  // ----- errors -----
  /** The errors on show; the server's own ones; the fields changed since they were shown. */
  let shownErrors: Record<string, string> = {};
  let serverFields = new Set<string>();
  const editedFields = new Set<string>();
  const renderErrors = (errors: Record<string, string | undefined>, summary?: string) => {
    shownErrors = Object.fromEntries(Object.entries(errors).filter((entry): entry is [string, string] => Boolean(entry[1])));
    root.querySelectorAll<HTMLElement>('[data-field-error]').forEach((slot) => {
      const message = errors[slot.dataset['fieldError'] ?? ''];
      slot.textContent = message ?? '';
      const field = slot.parentElement?.querySelector<HTMLElement>('.field__input');
      if (field) field.toggleAttribute('aria-invalid', Boolean(message));
    });
    const text = summary ?? joinErrors(errors);
    if (banner) {
      banner.textContent = text;
      banner.hidden = text === '';
    }
  };
  const showErrors = (errors: Record<string, string | undefined>, summary?: string, fromServer = false) => {
    serverFields = new Set(fromServer ? Object.keys(errors) : []);
    editedFields.clear();
    renderErrors(errors, summary);
  };
  const showBanner = (text: string) => showErrors({}, text);
  /**
   * After an edit, the errors on show keep only what is still wrong, beside the fields and in the
   * banner: a fixed field's message goes at once (the banner stayed on Review listing every error
   * of the last attempt). The server's findings (a place it does not know) stand until their
   * field is changed.
   */
  const refreshErrors = (edited?: string) => {
    if (edited) editedFields.add(edited);
    if (Object.keys(shownErrors).length === 0) return;
    const current = currentErrors();
    const remaining = Object.fromEntries(
      Object.entries(shownErrors).flatMap(([field, message]): Array<[string, string]> => {
        const now = current[field];
        if (now) return [[field, now]];
        return serverFields.has(field) && !editedFields.has(field) ? [[field, message]] : [];
      }),
    );
    renderErrors(remaining);
  };
  /** The error slot a form control's messages go to. */
  const fieldOfControl = (control: HTMLElement): string | undefined => {
    const attribute = control.dataset['attribute'];
    if (attribute) return `attributes.${attribute}`;
    const name = control.getAttribute('name');
    return name ? fieldOfApi(name) : undefined;
  };

  // ----- steps -----
  const showStep = (step: number) => {
    draft = { ...draft, step };
    root.querySelectorAll<HTMLElement>('[data-step]').forEach((panel) => (panel.hidden = Number(panel.dataset['step']) !== step));
    root.querySelectorAll<HTMLElement>('[data-step-marker]').forEach((marker) => {
      const index = Number(marker.dataset['stepMarker']);
      if (index === step) marker.setAttribute('aria-current', 'step');
      else marker.removeAttribute('aria-current');
      marker.classList.toggle('wizard__step--done', index < step);
    });
    if (previous) previous.disabled = step === 0;
    if (next) next.hidden = step === STEPS.length - 1;
    if (publish) publish.hidden = step !== STEPS.length - 1;
    if (step === STEPS.length - 1) renderReview();
    writeDraft();
  };
  const renderReview = () => {
    const review = $<HTMLElement>('[data-review]');
    if (!review) return;
    const price = parsePrice(draft.price);
    const category =
      draft.type === 'rent'
        ? `Rentals: ${CATEGORIES.find((c) => c.slug === draft.subcategory)?.name ?? 'not chosen'}`
        : (CATEGORIES.find((c) => c.slug === draft.category)?.name ?? 'Not chosen');
    const facts = draftFields(draft)
      .filter((field) => draft.attributes[field.key])
      .map((field) => `<div><dt>${escapeHtml(field.label)}</dt><dd>${escapeHtml(draft.attributes[field.key] ?? '')}</dd></div>`)
      .join('');
    const row = (label: string, value: string) => `<div><dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value || 'Not given')}</dd></div>`;
    review.innerHTML = `<dl class="listing-facts">
${row('Listing type', draft.type === 'rent' ? 'For Rent' : draft.type === 'sale' ? 'For Sale' : '')}
${row('Title', draft.title)}
${row('Category', category)}
${row('Price', price !== undefined && !Number.isNaN(price) ? formatListingPrice(price, draft.price_unit, draft.vat) : '')}
${row('VAT', VAT_OPTIONS[draft.vat as keyof typeof VAT_OPTIONS] ?? '')}
${row('Location', draft.location)}
${row('Photos', `${draft.images.length} of ${IMAGE_LIMITS.maxFiles}`)}
${facts}
</dl>
<h3>Description</h3><p class="listing-page__description">${escapeHtml(draft.description || 'Not given')}</p>`;
  };

  // ----- photos -----
  const addFiles = (files: FileList | File[]) => {
    const problems: string[] = [];
    for (const file of files) {
      if (photos.length >= IMAGE_LIMITS.maxFiles) {
        problems.push(IMAGE_MESSAGES.tooMany);
        break;
      }
      const problem = fileProblem(file);
      if (problem) {
        if (!problems.includes(problem)) problems.push(problem);
        continue;
      }
      const photo: Photo = { key: ++photoKey, name: file.name, preview: URL.createObjectURL(file), progress: 0 };
      photos.push(photo);
      const upload = uploadPhoto(file, (fraction) => {
        photo.progress = fraction;
        updatePhotoProgress(photo);
      });
      photo.abort = upload.abort;
      void upload.done.then((outcome) => {
        delete photo.abort;
        if (!photos.includes(photo)) return;
        if (outcome.ok) {
          photo.id = outcome.id;
          photo.progress = 1;
          if (photo.preview) previews.set(outcome.id, photo.preview);
          syncImages();
          persist();
          refreshErrors('images');
        } else if (outcome.status === 401) {
          location.assign(signInHref('/post-listing'));
          return;
        } else {
          photo.error = outcome.status === 403 ? ACCOUNT_TEXTS.verifyEmailFirst : outcome.error;
        }
        renderPhotos();
      });
    }
    const slot = root.querySelector<HTMLElement>('[data-field-error="images"]');
    if (slot) slot.textContent = problems.join(' ');
    renderPhotos();
  };

  fileInput?.addEventListener('change', () => {
    if (fileInput.files) addFiles(fileInput.files);
    fileInput.value = '';
  });
  const drop = $<HTMLElement>('[data-drop]');
  drop?.addEventListener('dragover', (event) => {
    event.preventDefault();
    drop.classList.add('wizard__drop--over');
  });
  drop?.addEventListener('dragleave', () => drop.classList.remove('wizard__drop--over'));
  drop?.addEventListener('drop', (event) => {
    event.preventDefault();
    drop.classList.remove('wizard__drop--over');
    if (event.dataTransfer?.files) addFiles(event.dataTransfer.files);
  });
  photoList?.addEventListener('click', (event) => {
    const target = event.target as HTMLElement;
    const item = target.closest<HTMLElement>('[data-photo]');
    const index = photos.findIndex((photo) => String(photo.key) === item?.dataset['photo']);
    if (index < 0) return;
    const photo = photos[index] as Photo;
    if (target.closest('[data-remove]')) {
      photo.abort?.();
      photos.splice(index, 1);
    } else if (target.closest('[data-main]')) photos = moved(photos, index, 0);
    else if (target.closest('[data-move]'))
      photos = moved(photos, index, index + Number(target.closest<HTMLElement>('[data-move]')?.dataset['move']));
    else return;
    syncImages();
    persist();
    renderPhotos();
    refreshErrors('images');
  });

  // ----- fields -----
  form.addEventListener('input', (event) => {
    const target = event.target as HTMLElement;
    if (target.matches('[name="type"]')) return;
    readForm();
    if (target.matches('[name="description"]')) updateCounter();
    persist();
    refreshErrors(fieldOfControl(target));
  });
  form.addEventListener('change', (event) => {
    const target = event.target as HTMLInputElement;
    if (target.name === 'type') {
      readForm();
      draft = withType(draft, target.value as 'sale' | 'rent');
      fillForm();
    } else if (target.name === 'category' || target.name === 'subcategory') {
      readForm();
      draft = { ...draft, attributes: {} };
      showFieldsForType();
      for (const element of visibleAttributeInputs()) element.value = '';
    } else readForm();
    persist();
    refreshErrors(fieldOfControl(target));
  });
  const placeRoot = $<HTMLElement>('[data-place-picker]');
  const picker = placeRoot
    ? setupPlacePicker(placeRoot, () => {
        readForm();
        persist();
        refreshErrors('location');
      })
    : undefined;

  previous?.addEventListener('click', () => showStep(Math.max(0, draft.step - 1)));
  next?.addEventListener('click', async () => {
    if (draft.step === 1 && picker) {
      await picker.resolve();
      readForm();
    }
    showStep(Math.min(STEPS.length - 1, draft.step + 1));
    $<HTMLElement>(`[data-step="${draft.step}"] h2`)?.focus();
  });

  // ----- publishing -----
  const setBusy = (value: boolean) => {
    busy = value;
    if (publish) {
      publish.disabled = value;
      publish.textContent = value ? 'Publishing...' : editId ? 'Save Changes' : 'Publish Listing';
    }
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    if (busy) return;
    if (picker) await picker.resolve();
    readForm();
    syncImages();
    const errors = currentErrors();
    if (Object.keys(errors).length > 0) {
      showErrors(errors);
      return;
    }
    showErrors({});
    setBusy(true);
    const body = { ...listingPayload(draft), ...(declared() ? { confirm_over_18: true } : {}) };
    const init = { body, headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
    const outcome = await settle<ListingDetail>(() =>
      editId ? api.PUT('/api/listings/{id}', { ...init, params: { path: { id: editId } } }) : api.POST('/api/listings', init),
    );
    setBusy(false);
    if (outcome.ok) {
      succeed(outcome.data.id);
      return;
    }
    if (outcome.status === 401) {
      location.assign(signInHref(location.pathname + location.search));
      return;
    }
    if (outcome.status === 403) {
      showBanner(ACCOUNT_TEXTS.verifyEmailFirst);
      return;
    }
    if (outcome.fields) {
      const fields = Object.fromEntries(Object.entries(outcome.fields).map(([name, message]) => [fieldOfApi(name), message]));
      if (fields['confirm_over_18']) askForDeclaration();
      showErrors(fields, outcome.error, true);
      const first = Object.keys(fields)[0];
      if (first) showStep(stepOf(first));
      return;
    }
    showBanner(outcome.status === 0 ? SUBMIT_FAILED : outcome.error || SUBMIT_FAILED);
  });

  const succeed = (id: string) => {
    finished = true;
    // Published with the declaration: it is kept, and not asked again.
    askDeclaration = false;
    if (declaration) declaration.hidden = true;
    clearTimeout(saveTimer);
    try {
      localStorage.removeItem(storageKey);
    } catch {
      // nothing kept
    }
    form.hidden = true;
    const steps = $<HTMLElement>('.wizard__steps');
    if (steps) steps.hidden = true;
    const success = $<HTMLElement>('[data-success]');
    if (!success) return;
    success.hidden = false;
    const text = success.querySelector('[data-success-text]');
    const target = editId ? `/listing/${id}` : '/browse';
    if (text)
      text.textContent = editId
        ? 'Your changes are saved. Taking you to the listing…'
        : 'Your listing is live. Taking you to the listings…';
    success.focus();
    redirectTimer = setTimeout(() => location.assign(target), REDIRECT_AFTER_MS);
  };
  $<HTMLButtonElement>('[data-post-another]')?.addEventListener('click', () => {
    clearTimeout(redirectTimer);
    if (editId) {
      location.assign('/post-listing');
      return;
    }
    finished = false;
    draft = { ...EMPTY_DRAFT };
    photos = [];
    form.reset();
    form.hidden = false;
    const steps = $<HTMLElement>('.wizard__steps');
    if (steps) steps.hidden = false;
    const success = $<HTMLElement>('[data-success]');
    if (success) success.hidden = true;
    fillForm();
    renderPhotos();
    showErrors({});
    showStep(0);
  });

  // ----- start -----
  const start = async () => {
    let stored: unknown;
    try {
      stored = JSON.parse(localStorage.getItem(storageKey) ?? 'null');
    } catch {
      stored = null;
    }
    if (editId) {
      const title = $<HTMLElement>('[data-wizard-title]');
      if (title) title.textContent = 'Edit Listing';
      const found = await settle<ListingDetail>(() => api.GET('/api/listings/{id}', { params: { path: { id: editId } } }));
      if (!found.ok || !found.data.is_owner) {
        showBanner(found.ok || found.status === 404 ? 'Listing Not Found' : SUBMIT_FAILED);
        form.hidden = true;
        return;
      }
      for (const image of found.data.images) if (image.url) previews.set(image.id, image.url);
      draft = stored
        ? restoreDraft(stored)
        : {
            ...EMPTY_DRAFT,
            type: found.data.type,
            title: found.data.title,
            category: found.data.category_slug,
            subcategory: found.data.rent_subcategory ?? '',
            price: String(found.data.price),
            price_unit: found.data.price_unit,
            vat: found.data.vat,
            location: found.data.location,
            place_id: found.data.place_id ?? '',
            description: found.data.description,
            attributes: Object.fromEntries(
              Object.entries(found.data.attributes).map(([key, value]) => [
                key,
                typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value),
              ]),
            ),
            images: found.data.images.map((image, index) => ({ id: image.id, name: `Photo ${index + 1}` })),
          };
      setBusy(false);
    } else {
      draft = stored ? restoreDraft(stored) : { ...EMPTY_DRAFT };
      const initialType = root.dataset['initialType'];
      if (!stored && initialType === 'sale') draft = withType(draft, 'sale');
      // Asked before a person's first listing only (if this fails, the API's answer asks instead).
      const seller = await settle<components['schemas']['SellerDeclaration']>(() =>
        api.GET('/api/listings/seller-declaration', { headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
      );
      if (seller.ok && !seller.data.over_18_confirmed) askForDeclaration();
    }
    photos = draft.images.map((image) => ({ key: ++photoKey, name: image.name, id: image.id, progress: 1 }));
    fillForm();
    renderPhotos();
    showStep(draft.step);
    if (stored && draftNote) draftNote.textContent = 'Draft restored from this device';
  };
  void start();
}
