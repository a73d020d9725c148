import { describe, expect, it } from '@jest/globals';
import {
  draftFields,
  EMPTY_DRAFT,
  fileProblem,
  joinErrors,
  listingPayload,
  moved,
  parsePrice,
  priceUnits,
  restoreDraft,
  validateDraft,
  withType,
  type ListingDraft,
} from './wizard-logic';

const valid: ListingDraft = {
  ...EMPTY_DRAFT,
  type: 'sale',
  title: 'Massey Ferguson 5713',
  category: 'equipment',
  price: '38,500',
  price_unit: 'total',
  vat: 'plus-vat',
  location: 'Taunton, England',
  place_id: '2636389',
  description: 'A well kept tractor with a full service history, new tyres and a front loader.',
  attributes: { year: '2019', hours: '2400', make: 'Massey Ferguson' },
  images: [{ id: '6f1c1f0e-8a2b-4c1d-9e3f-1a2b3c4d5e6f', name: 'front.jpg' }],
};

describe('validateDraft', () => {
  it('collects the SPEC messages in order, joined with commas', () => {
    expect(joinErrors(validateDraft(EMPTY_DRAFT))).toBe(
      'Listing type is required, Title is required, Category is required, Price is required, Location is required, Description is required, At least one image is required',
    );
  });

  it('asks for at least 50 characters of description and a rent subcategory', () => {
    const errors = validateDraft({ ...withType(valid, 'rent'), description: 'Too short' });
    expect(errors.description).toBe('Description must be at least 50 characters');
    expect(errors.subcategory).toBe('Please select a category');
  });

  it('accepts a complete draft and checks the category fields', () => {
    expect(validateDraft(valid)).toEqual({});
    expect(validateDraft({ ...valid, attributes: { year: '1700' } })['attributes.year']).toMatch(/^Year must be a whole number/);
  });
});

describe('livestock and units', () => {
  const cattle = { ...valid, category: 'livestock', price_unit: 'per-head', attributes: { species: 'cattle', head_count: '2' } };

  it('shows cattle-only fields for cattle, not for sheep, and never sends them for sheep', () => {
    expect(draftFields(cattle).map((field) => field.key)).toEqual(expect.arrayContaining(['ear_tags', 'tb_status', 'pre_movement_test']));
    const sheep = { ...cattle, attributes: { species: 'sheep', ear_tags: 'UK 284205 700016' } };
    expect(draftFields(sheep).map((field) => field.key)).not.toContain('ear_tags');
    expect(listingPayload(sheep).attributes).toEqual({ species: 'sheep' });
  });

  it('checks ear tags against the head count as the API does, in its words', () => {
    const three = { ...cattle, attributes: { ...cattle.attributes, ear_tags: 'UK 284205 600015\nUK 284205 700016\nUK 284205 100017' } };
    expect(validateDraft(three)['attributes.ear_tags']).toBe('Ear tags: at most one per head (3 tags for 2 head)');
  });

  it('offers the units of the kind of listing: grazing per acre per season, machinery per day', () => {
    expect(priceUnits('rent', 'land')).toContain('per-acre-season');
    expect(priceUnits('rent', 'equipment')).not.toContain('per-acre-season');
    expect(priceUnits('sale', 'equipment')).toEqual(['total']);
  });
});

describe('type, payload and photos', () => {
  it('For Rent forces Rentals and clears the subcategory; For Sale clears Rentals', () => {
    const rent = withType({ ...valid, subcategory: 'land' }, 'rent');
    expect(rent).toMatchObject({ category: 'rentals', subcategory: '', price_unit: 'per-day' });
    expect(withType(rent, 'sale').category).toBe('');
  });

  it('sends numbers, the place and the image ids', () => {
    expect(listingPayload(valid)).toMatchObject({
      type: 'sale',
      category: 'equipment',
      price: 38500,
      place_id: '2636389',
      attributes: { year: 2019, hours: 2400, make: 'Massey Ferguson' },
      images: ['6f1c1f0e-8a2b-4c1d-9e3f-1a2b3c4d5e6f'],
    });
    expect(parsePrice('£1,200')).toBe(1200);
    expect(parsePrice('abc')).toBeNaN();
  });

  it('refuses other types and big files with the SPEC messages, and reorders', () => {
    expect(fileProblem({ type: 'image/gif', size: 10 })).toBe('Please upload only JPEG, PNG, or WebP images.');
    expect(fileProblem({ type: 'image/png', size: 5_242_881 })).toBe('Image size must be less than 5MB.');
    expect(fileProblem({ type: 'image/webp', size: 5_242_880 })).toBeUndefined();
    expect(moved(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
  });

  it('restores a stored draft defensively', () => {
    expect(restoreDraft('nonsense')).toEqual(EMPTY_DRAFT);
    expect(restoreDraft({ title: 5, type: 'rent', images: [{ id: 'x', name: 'y' }, { id: 1 }], step: 9 })).toMatchObject({
      title: '',
      type: 'rent',
      images: [{ id: 'x', name: 'y' }],
      step: 0,
    });
  });
});

describe('a wanted ad', () => {
  const lambs: ListingDraft = {
    ...withType({ ...valid, category: 'livestock', attributes: {} }, 'wanted'),
    category: 'livestock',
    title: 'Wanted: 20 Texel ewe lambs',
    price: '120',
    price_unit: 'per-head',
    images: [],
    attributes: { breed: 'Texel' },
    wanted_ranges: { age_months_min: '6', age_months_max: '9' },
    wanted_radius: '50',
  };

  it('needs no photo, asks range fields as ranges and leaves out what identifies a seller’s own animals', () => {
    expect(validateDraft(lambs)).toEqual({});
    const asked = draftFields(lambs).map((field) => field.key);
    expect(asked).toContain('breed');
    expect(asked).not.toEqual(expect.arrayContaining(['age_months']));
    expect(asked.filter((key) => ['cph', 'ear_tags', 'age_months', 'head_count', 'pre_movement_test'].includes(key))).toEqual([]);
  });

  it('checks its ranges with the API’s words, by the API’s field names', () => {
    expect(validateDraft({ ...lambs, wanted_ranges: { age_months_min: '9', age_months_max: '6' } })).toEqual({
      'wanted_ranges.age_months_max': 'age_months_max must not be below age_months_min',
    });
    expect(validateDraft({ ...lambs, wanted_ranges: { head_count_max: '0' } })).toEqual({
      'wanted_ranges.head_count_max': 'head_count_max must be from 1 to 100000',
    });
  });

  it('is sent with its ranges as numbers and its radius', () => {
    expect(listingPayload(lambs)).toMatchObject({
      type: 'wanted',
      category: 'livestock',
      price: 120,
      price_unit: 'per-head',
      images: [],
      attributes: { breed: 'Texel' },
      wanted_ranges: { age_months_min: 6, age_months_max: 9 },
      wanted_radius: 50,
    });
    expect(listingPayload(valid)).not.toHaveProperty('wanted_ranges');
    expect(restoreDraft(JSON.parse(JSON.stringify(lambs)))).toEqual(lambs);
  });
});
