import { describe, expect, it } from '@jest/globals';
import { canonicalPostcode, isPlaceId, parsePostcode, roundedCoordinate } from './postcodes.js';

describe('postcodes as typed', () => {
  it.each([
    ['EX20 1AB', { kind: 'postcode', postcode: 'EX20 1AB', outcode: 'EX20' }],
    ['ex201ab', { kind: 'postcode', postcode: 'EX20 1AB', outcode: 'EX20' }],
    ['  sw1a   2aa ', { kind: 'postcode', postcode: 'SW1A 2AA', outcode: 'SW1A' }],
    ['M1 1AE', { kind: 'postcode', postcode: 'M1 1AE', outcode: 'M1' }],
    ['TA1', { kind: 'outcode', outcode: 'TA1' }],
    ['ta1', { kind: 'outcode', outcode: 'TA1' }],
    ['EC1V', { kind: 'outcode', outcode: 'EC1V' }],
  ])('reads %j as %j', (typed, parsed) => {
    expect(parsePostcode(typed)).toEqual(parsed);
  });

  it.each([
    ['a place name', 'Taunton'],
    ['a name of two letters', 'Ex'],
    ['a half-typed postcode', 'EX20 1'],
    ['an inward code with a letter Royal Mail never uses (C, I, K, M, O, V)', 'EX20 1AC'],
    ['too many letters before the digit', 'EXE20 1AB'],
    ['too long', 'EX20 1ABC'],
    ['a GeoNames place id', '2636177'],
  ])('does not take %s (%j) for a postcode', (_what, typed) => {
    expect(parsePostcode(typed)).toBeUndefined();
  });

  it('writes every spelling of one postcode the same way', () => {
    expect(['ex20 1ab', 'EX201AB', ' Ex20  1aB'].map(canonicalPostcode)).toEqual(['EX20 1AB', 'EX20 1AB', 'EX20 1AB']);
    expect(canonicalPostcode('Hexham')).toBeUndefined();
  });

  it('rounds a listing coordinate to two decimal places (about a kilometre), not to the address', () => {
    expect(roundedCoordinate(50.73878)).toBe(50.74);
    expect(roundedCoordinate(-4.00244)).toBe(-4);
    expect(roundedCoordinate(-3.10516)).toBe(-3.11);
  });
});

describe('isPlaceId: the one test of a place id (bodies, search parameters, a listing page’s near)', () => {
  it.each(['2636177', 'EX20 1AB', 'ex201ab', 'TA1', 'sw1a 2aa'])('takes %s', (id) => expect(isPlaceId(id)).toBe(true));
  it.each([
    '',
    'Taunton',
    '1234567890123',
    'TA1 1AAA',
    // An inward code with a letter Royal Mail never uses (C, I, K, M, O, V): the old pattern let it through.
    'EX20 1CI',
    '12a',
    // Spaces inside an outward code: the parser would read TA1, the stated pattern does not.
    'T A1',
  ])('refuses %p', (id) => expect(isPlaceId(id)).toBe(false));
});
