import { ACCOUNT_TEXTS } from '@contracts/account';
import { SELLER_TEXTS } from '@contracts/trust';
import { IMAGE_LIMITS, IMAGE_MESSAGES } from '@contracts/images';
import { LISTING_TEXTS, type ListingType } from '@contracts/listings';
import {
  DESCRIPTION_MAX,
  EMPTY_DRAFT,
  fieldOfApi,
  joinErrors,
  listingPayload,
  moved,
  priceUnits,
  stepOf,
  STEPS,
  validateDraft,
  withType,
  type ListingDraft,
  type ListingRequest,
} from './wizard-logic';

export const SUBMIT_FAILED = 'Failed to submit listing. Please try again.';
export const UPLOADS_PENDING = 'Please wait until your photos have finished uploading.';

/** A photo of the listing: uploaded (has an id) or on its way (progress), with a preview when there is one. */
export interface WizardPhoto {
  key: number;
  name: string;
  id?: string;
  preview?: string;
  progress: number;
  error?: string;
}

/**
 * Everything the post-listing wizard shows. `phase`: loading the draft (or the listing being edited),
 * editing, publishing, published, or unavailable (an edit of a listing that is not the person's).
 */
export interface WizardState {
  phase: 'loading' | 'editing' | 'publishing' | 'published' | 'unavailable';
  draft: ListingDraft;
  photos: WizardPhoto[];
  /** The over-18 declaration is asked (before a person's first listing), and whether it is ticked. */
  askDeclaration: boolean;
  declared: boolean;
  /** Private or trade is asked (before a person's first listing, issue 23 §2), and the answer with a trader's business name. */
  askSellerType: boolean;
  sellerType: 'private' | 'trade' | '';
  businessName: string;
  /** The errors on show beside the fields, by field ('title', 'attributes.acres', 'images', …). */
  errors: Record<string, string>;
  /** Fields whose error the server found: it stands until that field is edited. */
  serverFields: string[];
  editedFields: string[];
  /** The banner above the form ('' when hidden). */
  banner: string;
  /** Why chosen files were not taken (type, size, too many); shown in the photos' error slot. */
  photoProblems: string;
  draftNote: '' | 'saved' | 'restored';
  publishedId?: string;
  /** Live wanted ads the new listing answers (their owners are told): the success screen says so. */
  wantedBy?: number;
}

/** A file the person chose, as the wizard judges it: `problem` from fileProblem, `key` a new photo's. */
export interface ChosenFile {
  key: number;
  name: string;
  problem?: string;
  preview?: string;
}

export type WizardEvent =
  | { type: 'sellerTypeChanged'; value: 'private' | 'trade' }
  | { type: 'businessNameChanged'; value: string }
  | {
      type: 'loaded';
      draft: ListingDraft;
      askDeclaration: boolean;
      askSellerType?: boolean;
      restored: boolean;
      previews?: Record<string, string>;
      firstKey: number;
    }
  | { type: 'unavailable'; message: string }
  | { type: 'typeChosen'; value: ListingType }
  | { type: 'fieldChanged'; name: TextField; value: string }
  | { type: 'attributeChanged'; key: string; value: string }
  /** A wanted ad's bound, by browse's name (`age_months_min`). */
  | { type: 'rangeChanged'; name: string; value: string }
  | { type: 'placeChanged'; location: string; placeId: string }
  | { type: 'declarationChanged'; checked: boolean }
  | { type: 'filesChosen'; files: ChosenFile[] }
  | { type: 'uploadProgress'; key: number; fraction: number }
  | { type: 'uploaded'; key: number; id: string }
  | { type: 'uploadFailed'; key: number; error: string }
  | { type: 'photoRemoved'; key: number }
  | { type: 'photoMoved'; key: number; to: number }
  | { type: 'stepChosen'; step: number }
  | { type: 'draftSaved' }
  | { type: 'publishRequested' }
  | { type: 'publishFailed'; status: number; summary: string; fields?: Record<string, string> }
  | { type: 'published'; id: string; wantedBy?: number }
  | { type: 'postAnother' };

/** The draft's plain text fields, as the form names them. */
export type TextField = 'title' | 'category' | 'subcategory' | 'price' | 'price_unit' | 'vat' | 'description' | 'wanted_radius';

export const INITIAL_STATE: WizardState = {
  phase: 'loading',
  draft: { ...EMPTY_DRAFT },
  photos: [],
  askDeclaration: false,
  declared: false,
  askSellerType: false,
  sellerType: '',
  businessName: '',
  errors: {},
  serverFields: [],
  editedFields: [],
  banner: '',
  photoProblems: '',
  draftNote: '',
};

/** What is wrong with the wizard now, as publishing would find it. */
export function currentErrors(state: WizardState): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [field, message] of Object.entries(validateDraft(state.draft))) if (message) errors[field] = message;
  if (state.photos.some((photo) => !photo.id && !photo.error)) errors['images'] = UPLOADS_PENDING;
  if (state.askDeclaration && !state.declared) errors['confirm_over_18'] = LISTING_TEXTS.overEighteenRequired;
  if (state.askSellerType && !state.sellerType) errors['seller_type'] = SELLER_TEXTS.chooseType;
  if (state.askSellerType && state.sellerType === 'trade' && !state.businessName.trim())
    errors['business_name'] = SELLER_TEXTS.businessNameRequired;
  return errors;
}

/** The request body publishing sends. */
export function publishBody(state: WizardState): ListingRequest {
  return {
    ...listingPayload(state.draft),
    ...(state.askDeclaration && state.declared ? { confirm_over_18: true } : {}),
    ...(state.askSellerType && state.sellerType ? { seller_type: state.sellerType } : {}),
    ...(state.askSellerType && state.sellerType === 'trade' ? { business_name: state.businessName.trim() } : {}),
  };
}

/** The photos still uploading: the island starts an upload for each it has not started yet. */
export function uploading(state: WizardState): WizardPhoto[] {
  return state.photos.filter((photo) => !photo.id && !photo.error);
}

/** The wizard's one rule for what each event does: pure, so it is tested without a page. */
export function transition(state: WizardState, event: WizardEvent): WizardState {
  switch (event.type) {
    case 'loaded': {
      const photos = event.draft.images.map((image, index) => ({
        key: event.firstKey + index,
        name: image.name,
        id: image.id,
        progress: 1,
        ...(event.previews?.[image.id] ? { preview: event.previews[image.id] } : {}),
      }));
      const step = Math.min(Math.max(0, event.draft.step), STEPS.length - 1);
      return {
        ...INITIAL_STATE,
        phase: 'editing',
        draft: { ...event.draft, step },
        photos,
        askDeclaration: event.askDeclaration,
        askSellerType: event.askSellerType ?? false,
        draftNote: event.restored ? 'restored' : '',
      };
    }
    case 'unavailable':
      return { ...state, phase: 'unavailable', banner: event.message };
    case 'typeChosen':
      return edited({ ...state, draft: withType(state.draft, event.value) }, fieldOfApi('type'));
    case 'fieldChanged': {
      const value = event.name === 'description' ? event.value.slice(0, DESCRIPTION_MAX) : event.value;
      const draft = { ...state.draft, [event.name]: value };
      // Another category has other details: those given for the last one go.
      if (event.name === 'category' || event.name === 'subcategory') {
        draft.attributes = {};
        draft.wanted_ranges = {};
        // Each kind of listing has its own units (grazing per acre, machinery per day): keep one it has.
        const units = priceUnits(draft.type, value);
        if (!units.includes(draft.price_unit)) draft.price_unit = units[0] ?? 'total';
      }
      return edited({ ...state, draft }, fieldOfApi(event.name));
    }
    case 'attributeChanged': {
      const attributes = { ...state.draft.attributes };
      if (event.value === '') delete attributes[event.key];
      else attributes[event.key] = event.value;
      return edited({ ...state, draft: { ...state.draft, attributes } }, `attributes.${event.key}`);
    }
    case 'rangeChanged': {
      const wanted_ranges = { ...state.draft.wanted_ranges };
      if (event.value === '') delete wanted_ranges[event.name];
      else wanted_ranges[event.name] = event.value;
      return edited({ ...state, draft: { ...state.draft, wanted_ranges } }, `wanted_ranges.${event.name}`);
    }
    case 'placeChanged':
      return edited({ ...state, draft: { ...state.draft, location: event.location, place_id: event.placeId } }, 'location');
    case 'declarationChanged':
      return edited({ ...state, declared: event.checked }, 'confirm_over_18');
    case 'sellerTypeChanged':
      return edited({ ...state, sellerType: event.value }, 'seller_type');
    case 'businessNameChanged':
      return edited({ ...state, businessName: event.value }, 'business_name');
    case 'filesChosen': {
      const problems: string[] = [];
      const photos = [...state.photos];
      for (const file of event.files) {
        if (photos.length >= IMAGE_LIMITS.maxFiles) {
          problems.push(IMAGE_MESSAGES.tooMany);
          break;
        }
        if (file.problem) {
          if (!problems.includes(file.problem)) problems.push(file.problem);
          continue;
        }
        photos.push({ key: file.key, name: file.name, progress: 0, ...(file.preview ? { preview: file.preview } : {}) });
      }
      return { ...state, photos, photoProblems: problems.join(' ') };
    }
    case 'uploadProgress':
      return { ...state, photos: state.photos.map((photo) => (photo.key === event.key ? { ...photo, progress: event.fraction } : photo)) };
    case 'uploaded':
      return withPhotos(
        state,
        state.photos.map((photo) => (photo.key === event.key ? { ...photo, id: event.id, progress: 1 } : photo)),
      );
    case 'uploadFailed':
      return { ...state, photos: state.photos.map((photo) => (photo.key === event.key ? { ...photo, error: event.error } : photo)) };
    case 'photoRemoved':
      return withPhotos(
        state,
        state.photos.filter((photo) => photo.key !== event.key),
      );
    case 'photoMoved': {
      const from = state.photos.findIndex((photo) => photo.key === event.key);
      return from < 0 ? state : withPhotos(state, moved(state.photos, from, event.to));
    }
    case 'stepChosen':
      return { ...state, draft: { ...state.draft, step: Math.min(Math.max(0, event.step), STEPS.length - 1) } };
    case 'draftSaved':
      return state.draftNote === 'saved' ? state : { ...state, draftNote: 'saved' };
    case 'publishRequested': {
      if (state.phase !== 'editing') return state;
      const errors = currentErrors(state);
      if (Object.keys(errors).length > 0) return showErrors(state, errors);
      return { ...showErrors(state, {}), phase: 'publishing' };
    }
    case 'publishFailed': {
      const back = { ...state, phase: 'editing' as const };
      if (event.status === 403) return showErrors(back, {}, ACCOUNT_TEXTS.verifyEmailFirst);
      if (event.fields) {
        const fields = Object.fromEntries(Object.entries(event.fields).map(([name, message]) => [fieldOfApi(name), message]));
        const asked = {
          ...back,
          ...(fields['confirm_over_18'] ? { askDeclaration: true } : {}),
          ...(fields['seller_type'] || fields['business_name'] ? { askSellerType: true } : {}),
        };
        const shown = showErrors(asked, fields, event.summary, true);
        const first = Object.keys(fields)[0];
        return first ? { ...shown, draft: { ...shown.draft, step: stepOf(first) } } : shown;
      }
      return showErrors(back, {}, event.status === 0 ? SUBMIT_FAILED : event.summary || SUBMIT_FAILED);
    }
    case 'published':
      // Published with the declaration: it is kept, and not asked again.
      return { ...state, phase: 'published', publishedId: event.id, wantedBy: event.wantedBy, askDeclaration: false, askSellerType: false };
    case 'postAnother':
      return { ...INITIAL_STATE, phase: 'editing', draft: { ...EMPTY_DRAFT } };
  }
}

/** The photos changed: the draft keeps the uploaded ones (by id, in order), and their error is looked at again. */
function withPhotos(state: WizardState, photos: WizardPhoto[]): WizardState {
  const images = photos.filter((photo) => photo.id).map((photo) => ({ id: photo.id as string, name: photo.name }));
  return edited({ ...state, photos, draft: { ...state.draft, images } }, 'images');
}

function showErrors(state: WizardState, errors: Record<string, string>, summary?: string, fromServer = false): WizardState {
  return {
    ...state,
    errors,
    serverFields: fromServer ? Object.keys(errors) : [],
    editedFields: [],
    banner: summary ?? joinErrors(errors),
    photoProblems: '',
  };
}

/**
 * After an edit, the errors on show keep only what is still wrong, beside the fields and in the
 * banner: a fixed field's message goes at once. The server's findings (a place it does not know)
 * stand until their field is changed.
 */
function edited(state: WizardState, field: string): WizardState {
  const editedFields = state.editedFields.includes(field) ? state.editedFields : [...state.editedFields, field];
  if (Object.keys(state.errors).length === 0) return { ...state, editedFields };
  const current = currentErrors(state);
  const errors = Object.fromEntries(
    Object.entries(state.errors).flatMap(([name, message]): Array<[string, string]> => {
      const now = current[name];
      if (now) return [[name, now]];
      return state.serverFields.includes(name) && !editedFields.includes(name) ? [[name, message]] : [];
    }),
  );
  return { ...state, editedFields, errors, banner: joinErrors(errors), photoProblems: '' };
}
