import { describe, expect, it } from '@jest/globals';
import { ukCattleTag, ukCattleTagCheckDigit } from './field-formats.js';
import {
  CATEGORY_FIELDS,
  type CategoryField,
  categoryFieldError,
  fieldsFor,
  ON_FILE,
  priceUnitsFor,
  storedFieldValue,
  todayInUk,
  validUntil,
  visibleAttributes,
} from './listings.js';

const field = (key: string): CategoryField => {
  const found = [...CATEGORY_FIELDS.livestock, ...CATEGORY_FIELDS.equipment].find((candidate) => candidate.key === key);
  if (!found) throw new Error(`no field ${key}`);
  return found;
};
const cattle = { species: 'cattle', head_count: 3 };

describe('UK cattle ear tags', () => {
  // Real tags of one herd, consecutive calves (check digits cycle 6, 7, 1), as published by their keeper.
  it.each(['UK 284205 600015', 'UK 284205 700016', 'UK 284205 100017', 'uk284205700016', 'UK 123450 600001'])('accepts %s', (tag) => {
    expect(ukCattleTag(tag)).toMatch(/^UK \d{6} [1-7]\d{5}$/);
  });

  it('computes the check digit as herd mark and animal number modulo 7, plus 1', () => {
    expect(ukCattleTagCheckDigit('284205', '00016')).toBe(7);
    expect(ukCattleTagCheckDigit('123450', '00003')).toBe(1);
  });

  it.each([
    ['a wrong check digit', 'UK 284205 500016'],
    ['a misread animal number', 'UK 284205 700026'],
    ['a misread herd mark', 'UK 284295 700016'],
    ['a check digit of 8', 'UK 284205 800016'],
    ['no country', '284205 700016'],
    ['too short', 'UK 28420 700016'],
  ])('refuses %s', (_, tag) => {
    expect(ukCattleTag(tag)).toBeUndefined();
  });

  it('refuses a bad tag by name, more tags than head, repeats, and tags on sheep, in the words the wizard shows', () => {
    const tags = field('ear_tags');
    expect(categoryFieldError(tags, 'UK 284205 700016\nUK 284205 500016', cattle)).toBe(
      'Ear tags: each tag must be a UK cattle tag like UK 284205 700016 with its check digit right (“UK 284205 500016” is not)',
    );
    expect(categoryFieldError(tags, 'UK 284205 600015, UK 284205 700016, UK 284205 100017, UK 123450 600001', cattle)).toBe(
      'Ear tags: at most one per head (4 tags for 3 head)',
    );
    expect(categoryFieldError(tags, 'UK 284205 700016\nuk284205700016', cattle)).toBe('Ear tags: each tag once');
    expect(categoryFieldError(tags, 'UK 284205 700016', { species: 'sheep' })).toBe('Ear tags applies to cattle only');
    expect(categoryFieldError(tags, 'UK 284205 600015\nUK 284205 700016', cattle)).toBeUndefined();
    expect(storedFieldValue(tags, ' uk284205600015 , UK 284205 700016 ')).toBe('UK 284205 600015\nUK 284205 700016');
  });
});

describe('holding number (CPH)', () => {
  const cph = field('cph');
  it.each(['12/345/6789', '12 345 6789', '123456789', '12-345-6789'])('accepts %s and stores it as 12/345/6789', (text) => {
    expect(categoryFieldError(cph, text)).toBeUndefined();
    expect(storedFieldValue(cph, text)).toBe('12/345/6789');
  });

  it.each(['12/345/678', '1/345/6789', 'AB/345/6789', '12/345/67890'])('refuses %s', (text) => {
    expect(categoryFieldError(cph, text)).toBe('Holding number (CPH) must look like 12/345/6789 (county/parish/holding)');
  });
});

describe('what others than the owner see', () => {
  it('shows the county and parish of a holding number, and only "on file" for ear tags and a serial', () => {
    const shown = visibleAttributes(fieldsFor('livestock'), {
      species: 'cattle',
      cph: '12/345/6789',
      ear_tags: 'UK 284205 700016',
      tb_status: 'otf',
    });
    expect(shown).toEqual({ species: 'cattle', cph: '12/345/····', ear_tags: ON_FILE, tb_status: 'otf' });
    expect(JSON.stringify(shown)).not.toContain('6789');
    expect(visibleAttributes(fieldsFor('equipment'), { make: 'JCB', serial: 'JCB5CX4WC02345678' })).toEqual({
      make: 'JCB',
      serial: ON_FILE,
    });
  });
});

describe('TB test dates', () => {
  const preMovement = field('pre_movement_test');
  it('derives "valid until" 60 days after the pre-movement test, across a month and a year end', () => {
    expect(validUntil(preMovement, '2026-11-26')).toBe('2027-01-25');
    expect(validUntil(preMovement, '2027-01-01')).toBe('2027-03-02');
    expect(validUntil(field('herd_test_date'), '2026-11-26')).toBeUndefined();
  });

  it('refuses a test date in the future or not a date, and TB fields on pigs', () => {
    expect(categoryFieldError(preMovement, '2999-01-01', cattle)).toBe('Pre-movement TB test must not be in the future');
    expect(categoryFieldError(preMovement, '26/11/2026', cattle)).toBe('Pre-movement TB test must be a date (YYYY-MM-DD)');
    expect(categoryFieldError(preMovement, todayInUk(), cattle)).toBeUndefined();
    expect(categoryFieldError(field('tb_status'), 'otf', { species: 'pigs' })).toBe('Herd TB status applies to cattle only');
  });
});

describe('price units by category', () => {
  it('prices grazing per acre per season or year or per head per week, machinery by the day, week or month', () => {
    expect(priceUnitsFor('rent', 'land')).toEqual(expect.arrayContaining(['per-acre-season', 'per-acre-year', 'per-head-week']));
    expect(priceUnitsFor('rent', 'equipment')).toEqual(['per-day', 'per-week', 'per-month', 'per-season']);
    expect(priceUnitsFor('sale', 'livestock')).toEqual(['total', 'per-head']);
    expect(priceUnitsFor('sale', 'equipment')).not.toContain('per-head');
  });
});
