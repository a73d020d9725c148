import { startTransition, useEffect, useReducer, useRef } from 'react';
import { ACCOUNT_TEXTS } from '@contracts/account';
import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import type { PlacePickerHandle } from '../listings/PlacePickerField';
import {
  hasSignedInHint,
  REQUEST_TIMEOUT_MS,
  settle,
  signInHref,
  SITE_HEADERS,
  type ListingDetail,
  type PostedListing,
} from '../listings/listings-api';
import { uploadPhoto } from './upload';
import { EMPTY_DRAFT, fileProblem, restoreDraft, STEPS, withType, type ListingDraft } from './wizard-logic';
import { INITIAL_STATE, publishBody, SUBMIT_FAILED, transition, uploading, type WizardPhoto } from './wizard-machine';
import { DescriptionStep, DetailsStep, PhotosStep, ReviewStep, StepMarkers } from './WizardSteps';

const REDIRECT_AFTER_MS = 2000;
/** Typing is written to the device a moment later; a new step or leaving the page writes at once. */
const SAVE_AFTER_MS = 250;
const LAST_STEP = STEPS.length - 1;

interface Props {
  /** ?edit=<id>: the listing being edited (PUT), else a new one. */
  editId: string;
  /** ?type=sell or ?type=wanted: a new draft starts as For Sale, or as a wanted ad. */
  initialType: '' | 'sale' | 'wanted';
}

/**
 * The four-step post-listing wizard (SPEC §2, §5) as an island over its state machine
 * (wizard-machine.ts): this component runs the effects the machine's states call for (loading the
 * draft, keeping it on the device, uploading photos, publishing) and dispatches what happened.
 * Every change is kept in localStorage (uploaded photos by id), so a reload or a dropped
 * connection loses nothing.
 */
export default function PostListingWizard({ editId, initialType }: Props) {
  const [state, dispatch] = useReducer(transition, INITIAL_STATE);
  const storageKey = editId ? `fm_listing_draft:edit:${editId}` : 'fm_listing_draft';
  const place = useRef<PlacePickerHandle>(null);
  const successCard = useRef<HTMLDivElement>(null);
  const files = useRef(new Map<number, File>());
  const uploads = useRef(new Map<number, () => void>());
  const nextKey = useRef(1);
  const latest = useRef(state);
  latest.current = state;

  // ----- start: the kept draft, or the listing being edited -----
  useEffect(() => {
    if (!hasSignedInHint()) {
      location.replace(signInHref(location.pathname + location.search));
      return;
    }
    void (async () => {
      const stored = readStored(storageKey);
      const firstKey = nextKey.current;
      if (editId) {
        const found = await settle<ListingDetail>(() => api.GET('/api/listings/{id}', { params: { path: { id: editId } } }));
        if (!found.ok || !found.data.is_owner) {
          dispatch({ type: 'unavailable', message: found.ok || found.status === 404 ? 'Listing Not Found' : SUBMIT_FAILED });
          return;
        }
        const previews = Object.fromEntries(found.data.images.flatMap((image) => (image.url ? [[image.id, image.url]] : [])));
        const draft = stored ? restoreDraft(stored) : draftOfListing(found.data);
        nextKey.current += draft.images.length;
        startTransition(() => dispatch({ type: 'loaded', draft, askDeclaration: false, restored: Boolean(stored), previews, firstKey }));
        return;
      }
      let draft = stored ? restoreDraft(stored) : { ...EMPTY_DRAFT };
      if (!stored && initialType) draft = withType(draft, initialType);
      // Asked before a person's first listing only (if this fails, the API's answer asks instead).
      const seller = await settle<components['schemas']['SellerDeclaration']>(() =>
        api.GET('/api/listings/seller-declaration', { headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }),
      );
      nextKey.current += draft.images.length;
      // A transition: the form renders in slices rather than as one long task on a phone.
      startTransition(() =>
        dispatch({
          type: 'loaded',
          draft,
          askDeclaration: seller.ok && !seller.data.over_18_confirmed,
          askSellerType: seller.ok && !seller.data.seller_type,
          restored: Boolean(stored),
          firstKey,
        }),
      );
    })();
  }, [editId, initialType, storageKey]);

  // ----- keeping the draft on this device -----
  const keeping = state.phase === 'editing' || state.phase === 'publishing';
  /** The draft as loaded: writing it back says nothing over "Draft restored". */
  const loadedDraft = useRef<ListingDraft | null>(null);
  if (keeping && !loadedDraft.current) loadedDraft.current = state.draft;
  const save = (draft: ListingDraft) => {
    const kept = writeStored(storageKey, draft);
    if (kept && !(draft === loadedDraft.current && latest.current.draftNote === 'restored')) dispatch({ type: 'draftSaved' });
  };
  useEffect(() => {
    if (!keeping) return;
    const write = () => save(latest.current.draft);
    window.addEventListener('pagehide', write);
    return () => window.removeEventListener('pagehide', write);
  });
  useEffect(() => {
    if (!keeping) return;
    const timer = setTimeout(() => save(state.draft), SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [keeping, state.draft]);
  useEffect(() => {
    if (keeping) save(latest.current.draft);
    // A new step is written at once.
  }, [keeping, state.draft.step]);

  // ----- uploads: one per photo the machine is waiting for -----
  useEffect(() => {
    for (const photo of uploading(state)) {
      const file = files.current.get(photo.key);
      if (!file || uploads.current.has(photo.key)) continue;
      files.current.delete(photo.key);
      const upload = uploadPhoto(file, (fraction) => dispatch({ type: 'uploadProgress', key: photo.key, fraction }));
      uploads.current.set(photo.key, upload.abort);
      void upload.done.then((outcome) => {
        if (!uploads.current.delete(photo.key)) return; // removed meanwhile
        if (outcome.ok) dispatch({ type: 'uploaded', key: photo.key, id: outcome.id });
        else if (outcome.status === 401) location.assign(signInHref('/post-listing'));
        else
          dispatch({
            type: 'uploadFailed',
            key: photo.key,
            error: outcome.status === 403 ? ACCOUNT_TEXTS.verifyEmailFirst : outcome.error,
          });
      });
    }
  }, [state]);

  // ----- publishing: once the machine has accepted the draft -----
  useEffect(() => {
    if (state.phase !== 'publishing') return;
    const body = publishBody(state);
    const init = { body, headers: SITE_HEADERS, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) };
    void settle<PostedListing | ListingDetail>(() =>
      editId ? api.PUT('/api/listings/{id}', { ...init, params: { path: { id: editId } } }) : api.POST('/api/listings', init),
    ).then((outcome) => {
      if (outcome.ok) {
        dispatch({ type: 'published', id: outcome.data.id, wantedBy: 'wanted_by' in outcome.data ? outcome.data.wanted_by : undefined });
        return;
      }
      if (outcome.status === 401) {
        location.assign(signInHref(location.pathname + location.search));
        return;
      }
      dispatch({
        type: 'publishFailed',
        status: outcome.status,
        summary: outcome.error,
        ...(outcome.fields ? { fields: outcome.fields } : {}),
      });
    });
    // Only on entering the publishing state: the request is made once.
  }, [state.phase]);

  // ----- published: the draft goes, and the browser moves on -----
  useEffect(() => {
    if (state.phase !== 'published' || !state.publishedId) return;
    try {
      localStorage.removeItem(storageKey);
    } catch {
      // nothing kept
    }
    successCard.current?.focus();
    const target = editId ? `/listing/${state.publishedId}` : '/browse';
    const timer = setTimeout(() => location.assign(target), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [state.phase, state.publishedId, editId, storageKey]);

  const chooseFiles = (list: FileList) => {
    const chosen = [...list].map((file) => {
      const key = nextKey.current++;
      const problem = fileProblem(file);
      if (!problem) files.current.set(key, file);
      return { key, name: file.name, ...(problem ? { problem } : { preview: URL.createObjectURL(file) }) };
    });
    dispatch({ type: 'filesChosen', files: chosen });
  };
  const removePhoto = (photo: WizardPhoto) => {
    uploads.current.get(photo.key)?.();
    uploads.current.delete(photo.key);
    files.current.delete(photo.key);
    dispatch({ type: 'photoRemoved', key: photo.key });
  };
  const goTo = async (step: number) => {
    // Leaving the details: a typed place without a choice becomes its best match.
    if (state.draft.step === 1) await place.current?.resolve();
    dispatch({ type: 'stepChosen', step });
    requestAnimationFrame(() => document.getElementById(`step-${Math.min(Math.max(step, 0), LAST_STEP)}-title`)?.focus());
  };
  const publish = async (event: { preventDefault(): void }) => {
    event.preventDefault();
    if (state.phase !== 'editing') return;
    await place.current?.resolve();
    dispatch({ type: 'publishRequested' });
  };
  const postAnother = () => {
    if (editId) {
      location.assign('/post-listing');
      return;
    }
    dispatch({ type: 'postAnother' });
  };

  const { draft, phase } = state;
  const step = draft.step;
  const published = phase === 'published';
  return (
    <div className="container section wizard" data-wizard>
      <h1 data-wizard-title>{editId ? 'Edit Listing' : 'Post a Listing'}</h1>
      {!published && <StepMarkers step={step} />}
      <p className="alert alert--danger wizard__errors" role="alert" data-wizard-errors hidden={!state.banner}>
        {state.banner}
      </p>

      <form
        className="card wizard__form"
        noValidate
        data-wizard-form
        hidden={published || phase === 'unavailable'}
        onSubmit={(event) => void publish(event)}
      >
        {step === 0 && <PhotosStep state={state} dispatch={dispatch} onFiles={chooseFiles} onRemove={removePhoto} />}
        {step === 1 && <DetailsStep state={state} dispatch={dispatch} placeRef={place} />}
        {step === 2 && <DescriptionStep state={state} dispatch={dispatch} />}
        {step === LAST_STEP && <ReviewStep state={state} dispatch={dispatch} />}

        <div className="wizard__nav">
          <button type="button" className="btn btn--ghost" data-previous disabled={step === 0} onClick={() => void goTo(step - 1)}>
            Previous
          </button>
          <p className="wizard__saved" data-draft-note aria-live="polite">
            {state.draftNote === 'restored'
              ? 'Draft restored from this device'
              : state.draftNote === 'saved'
                ? 'Draft saved on this device'
                : ''}
          </p>
          {step < LAST_STEP ? (
            // Keys: Next and Publish are different buttons; one reused would turn into a submit button inside Next's own click.
            <button key="next" type="button" className="btn" data-next disabled={phase === 'loading'} onClick={() => void goTo(step + 1)}>
              Next
            </button>
          ) : (
            <button key="publish" type="submit" className="btn" data-publish disabled={phase !== 'editing'}>
              {phase === 'publishing' ? 'Publishing...' : editId ? 'Save Changes' : 'Publish Listing'}
            </button>
          )}
        </div>
      </form>

      {published && (
        <div className="card wizard__success" data-success tabIndex={-1} ref={successCard}>
          <h2>Listing Published!</h2>
          <p data-success-text>
            {editId ? 'Your changes are saved. Taking you to the listing…' : 'Your listing is live. Taking you to the listings…'}
          </p>
          {!editId && (state.wantedBy ?? 0) > 0 && (
            <p data-wanted-by>
              {state.wantedBy === 1
                ? '1 buyer wants this: their wanted ad matches your listing, and they have been told about it.'
                : `${state.wantedBy} buyers want this: their wanted ads match your listing, and they have been told about it.`}
            </p>
          )}
          <div className="btn-row">
            <a className="btn" href="/browse">
              View All Listings
            </a>
            <button type="button" className="btn btn--outline" data-post-another onClick={postAnother}>
              Post Another Listing
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

function readStored(key: string): unknown {
  try {
    return JSON.parse(localStorage.getItem(key) ?? 'null');
  } catch {
    return null;
  }
}

/** Whether the draft was kept (storage can be full or refused: the form still works, only the draft is not kept). */
function writeStored(key: string, draft: ListingDraft): boolean {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
    return true;
  } catch {
    return false;
  }
}

/** The listing being edited, as a draft. */
function draftOfListing(listing: ListingDetail): ListingDraft {
  return {
    ...EMPTY_DRAFT,
    type: listing.type,
    title: listing.title,
    category: listing.category_slug,
    subcategory: listing.rent_subcategory ?? '',
    price: String(listing.price),
    price_unit: listing.price_unit,
    vat: listing.vat,
    location: listing.location,
    place_id: listing.place_id ?? '',
    description: listing.description,
    attributes: Object.fromEntries(
      Object.entries(listing.attributes).map(([key, value]) => [key, typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value)]),
    ),
    images: listing.images.map((image, index) => ({ id: image.id, name: `Photo ${index + 1}` })),
    wanted_ranges: Object.fromEntries(Object.entries(listing.wanted_ranges ?? {}).map(([name, value]) => [name, String(value)])),
    wanted_radius: String(listing.wanted_radius ?? EMPTY_DRAFT.wanted_radius),
  };
}
