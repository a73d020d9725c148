import { describe, expect, it } from '@jest/globals';
import { ACCOUNT_TEXTS } from '@contracts/account';
import { IMAGE_MESSAGES } from '@contracts/images';
import { LISTING_TEXTS } from '@contracts/listings';
import { EMPTY_DRAFT, type ListingDraft } from './wizard-logic';
import {
  currentErrors,
  INITIAL_STATE,
  publishBody,
  SUBMIT_FAILED,
  transition,
  UPLOADS_PENDING,
  uploading,
  type WizardEvent,
  type WizardState,
} from './wizard-machine';

const complete: ListingDraft = {
  ...EMPTY_DRAFT,
  type: 'sale',
  title: 'Massey Ferguson 5713',
  category: 'equipment',
  price: '38500',
  location: 'Ashford, Kent',
  place_id: 'gb-ashford',
  description: 'One owner from new, full service history, 2,100 hours.',
  images: [{ id: 'photo-1', name: 'front.jpg' }],
};

function run(events: WizardEvent[], from: WizardState = INITIAL_STATE): WizardState {
  return events.reduce(transition, from);
}

const loaded = (draft: ListingDraft, extra: Partial<Extract<WizardEvent, { type: 'loaded' }>> = {}): WizardState =>
  transition(INITIAL_STATE, { type: 'loaded', draft, askDeclaration: false, restored: false, firstKey: 1, ...extra });

describe('the post-listing wizard state machine', () => {
  it('starts from a loaded draft on its step, with its uploaded photos, and says a kept draft was restored', () => {
    const state = loaded({ ...complete, step: 2 }, { restored: true, previews: { 'photo-1': 'https://cdn/photo-1.webp' } });
    expect(state.phase).toBe('editing');
    expect(state.draft.step).toBe(2);
    expect(state.photos).toEqual([{ key: 1, name: 'front.jpg', id: 'photo-1', progress: 1, preview: 'https://cdn/photo-1.webp' }]);
    expect(state.draftNote).toBe('restored');
    // A stored step past the last one lands on Review.
    expect(loaded({ ...complete, step: 9 }).draft.step).toBe(3);
  });

  it('publishes a complete draft, and sends the declaration only when it was asked and ticked', () => {
    const ready = loaded(complete, { askDeclaration: true });
    const unticked = transition(ready, { type: 'publishRequested' });
    expect(unticked.phase).toBe('editing');
    expect(unticked.errors).toEqual({ confirm_over_18: LISTING_TEXTS.overEighteenRequired });

    const ticked = run([{ type: 'declarationChanged', checked: true }, { type: 'publishRequested' }], unticked);
    expect(ticked.phase).toBe('publishing');
    expect(ticked.errors).toEqual({});
    expect(ticked.banner).toBe('');
    expect(publishBody(ticked)).toMatchObject({ title: complete.title, images: ['photo-1'], confirm_over_18: true });
    expect(publishBody(loaded(complete))).not.toHaveProperty('confirm_over_18');
  });

  it('shows every problem of an incomplete draft beside its field and in the banner, and does not publish', () => {
    const state = transition(loaded(EMPTY_DRAFT), { type: 'publishRequested' });
    expect(state.phase).toBe('editing');
    expect(Object.keys(state.errors)).toEqual(
      expect.arrayContaining(['type', 'title', 'category', 'price', 'location', 'description', 'images']),
    );
    expect(state.banner).toContain(LISTING_TEXTS.typeRequired);
    expect(state.banner).toContain(LISTING_TEXTS.imageRequired);
  });

  it('takes a fixed field’s message away at once and keeps the rest', () => {
    const shown = transition(loaded({ ...complete, title: '' }), { type: 'publishRequested' });
    const withPrice = transition(shown, { type: 'fieldChanged', name: 'price', value: '' });
    // Price was fine when the errors were shown: emptying it now does not add a message nobody asked for yet.
    expect(Object.keys(withPrice.errors)).toEqual(['title']);
    const fixed = transition(withPrice, { type: 'fieldChanged', name: 'title', value: 'Massey Ferguson 5713' });
    expect(fixed.errors).toEqual({});
    expect(fixed.banner).toBe('');
  });

  it('keeps the server’s finding on a field until that field is changed', () => {
    const refused = transition(
      { ...loaded(complete), phase: 'publishing' },
      {
        type: 'publishFailed',
        status: 400,
        summary: 'Validation failed',
        fields: { place_id: 'Choose a UK town or village from the list' },
      },
    );
    expect(refused.phase).toBe('editing');
    expect(refused.errors).toEqual({ location: 'Choose a UK town or village from the list' });
    expect(refused.banner).toBe('Validation failed');
    expect(refused.draft.step).toBe(1);
    const otherEdit = transition(refused, { type: 'fieldChanged', name: 'title', value: 'Massey Ferguson 5713 SL' });
    expect(otherEdit.errors).toEqual({ location: 'Choose a UK town or village from the list' });
    const placeEdit = transition(otherEdit, { type: 'placeChanged', location: 'Ashford, Kent', placeId: 'gb-ashford-2' });
    expect(placeEdit.errors).toEqual({});
  });

  it('asks for the declaration when the server says it is missing, on the Review step', () => {
    const refused = transition(
      { ...loaded({ ...complete, step: 3 }), phase: 'publishing' },
      { type: 'publishFailed', status: 400, summary: 'Validation failed', fields: { confirm_over_18: LISTING_TEXTS.overEighteenRequired } },
    );
    expect(refused.askDeclaration).toBe(true);
    expect(refused.draft.step).toBe(3);
  });

  it('says why publishing failed: unconfirmed address, no connection, or the server’s words', () => {
    const publishing: WizardState = { ...loaded(complete), phase: 'publishing' };
    expect(transition(publishing, { type: 'publishFailed', status: 403, summary: 'Forbidden' }).banner).toBe(
      ACCOUNT_TEXTS.verifyEmailFirst,
    );
    expect(transition(publishing, { type: 'publishFailed', status: 0, summary: 'fetch failed' }).banner).toBe(SUBMIT_FAILED);
    expect(transition(publishing, { type: 'publishFailed', status: 409, summary: 'Listing changed meanwhile' }).banner).toBe(
      'Listing changed meanwhile',
    );
    expect(transition(publishing, { type: 'publishFailed', status: 500, summary: '' }).banner).toBe(SUBMIT_FAILED);
  });

  it('takes files up to the limit, says why others were refused, and keeps only uploaded photos in the draft', () => {
    const start = loaded({ ...complete, images: [] });
    const chosen = transition(start, {
      type: 'filesChosen',
      files: [
        { key: 10, name: 'a.png', preview: 'blob:a' },
        { key: 11, name: 'b.gif', problem: IMAGE_MESSAGES.wrongType },
        { key: 12, name: 'c.gif', problem: IMAGE_MESSAGES.wrongType },
      ],
    });
    expect(chosen.photos.map((photo) => photo.name)).toEqual(['a.png']);
    expect(chosen.photoProblems).toBe(IMAGE_MESSAGES.wrongType);
    expect(uploading(chosen).map((photo) => photo.key)).toEqual([10]);
    // Publishing now would wait for the upload.
    expect(currentErrors(chosen)['images']).toBe(UPLOADS_PENDING);

    const done = transition(chosen, { type: 'uploaded', key: 10, id: 'photo-a' });
    expect(done.draft.images).toEqual([{ id: 'photo-a', name: 'a.png' }]);
    expect(uploading(done)).toEqual([]);

    const many = transition(done, {
      type: 'filesChosen',
      files: Array.from({ length: 9 }, (_, index) => ({ key: 20 + index, name: `p${index}.png` })),
    });
    expect(many.photos).toHaveLength(8);
    expect(many.photoProblems).toBe(IMAGE_MESSAGES.tooMany);
  });

  it('reorders photos: the first is the main photo, and the draft follows the order', () => {
    const three = loaded({
      ...complete,
      images: [
        { id: 'p1', name: 'one.jpg' },
        { id: 'p2', name: 'two.jpg' },
        { id: 'p3', name: 'three.jpg' },
      ],
    });
    const main = transition(three, { type: 'photoMoved', key: 3, to: 0 });
    expect(main.draft.images.map((image) => image.id)).toEqual(['p3', 'p1', 'p2']);
    const later = transition(main, { type: 'photoMoved', key: 3, to: 1 });
    expect(later.draft.images.map((image) => image.id)).toEqual(['p1', 'p3', 'p2']);
    const removed = transition(later, { type: 'photoRemoved', key: 1 });
    expect(removed.draft.images.map((image) => image.id)).toEqual(['p3', 'p2']);
    // Moving past either end changes nothing.
    expect(transition(removed, { type: 'photoMoved', key: 3, to: -1 }).draft.images.map((image) => image.id)).toEqual(['p3', 'p2']);
  });

  it('a failed upload is shown on its photo and does not hold publishing back as pending', () => {
    const chosen = transition(loaded(complete), { type: 'filesChosen', files: [{ key: 5, name: 'big.png' }] });
    const failed = transition(chosen, { type: 'uploadFailed', key: 5, error: 'Failed to upload images' });
    expect(failed.photos[1]).toMatchObject({ name: 'big.png', error: 'Failed to upload images' });
    expect(currentErrors(failed)['images']).toBeUndefined();
  });

  it('changing the category drops the details given for the last one; switching to rent asks what is rented', () => {
    const withDetails = transition(loaded(complete), { type: 'attributeChanged', key: 'year', value: '2019' });
    expect(withDetails.draft.attributes).toEqual({ year: '2019' });
    expect(transition(withDetails, { type: 'fieldChanged', name: 'category', value: 'land' }).draft.attributes).toEqual({});
    expect(transition(withDetails, { type: 'attributeChanged', key: 'year', value: '' }).draft.attributes).toEqual({});
    const rent = transition(withDetails, { type: 'typeChosen', value: 'rent' });
    expect(rent.draft).toMatchObject({ type: 'rent', category: 'rentals', subcategory: '', attributes: {} });
  });

  it('keeps the description within its limit', () => {
    const long = transition(loaded(complete), { type: 'fieldChanged', name: 'description', value: 'x'.repeat(10_000) });
    expect(long.draft.description.length).toBeLessThan(10_000);
    expect(long.draft.description.length).toBeGreaterThan(0);
  });

  it('moves between steps within the four, and publishes only once at a time', () => {
    const state = loaded(complete);
    expect(transition(state, { type: 'stepChosen', step: -1 }).draft.step).toBe(0);
    expect(transition(state, { type: 'stepChosen', step: 7 }).draft.step).toBe(3);
    const publishing = transition(state, { type: 'publishRequested' });
    expect(publishing.phase).toBe('publishing');
    expect(transition(publishing, { type: 'publishRequested' })).toBe(publishing);
  });

  it('after publishing, no longer asks for the declaration, and Post Another starts an empty draft', () => {
    const published = run(
      [
        { type: 'declarationChanged', checked: true },
        { type: 'published', id: 'listing-1' },
      ],
      loaded(complete, { askDeclaration: true }),
    );
    expect(published).toMatchObject({ phase: 'published', publishedId: 'listing-1', askDeclaration: false });
    const again = transition(published, { type: 'postAnother' });
    expect(again).toMatchObject({ phase: 'editing', draft: EMPTY_DRAFT, photos: [], errors: {}, banner: '', askDeclaration: false });
  });

  it('an edit of a listing that is not the person’s is unavailable, with the reason in the banner', () => {
    expect(transition(INITIAL_STATE, { type: 'unavailable', message: 'Listing Not Found' })).toMatchObject({
      phase: 'unavailable',
      banner: 'Listing Not Found',
    });
  });
});
