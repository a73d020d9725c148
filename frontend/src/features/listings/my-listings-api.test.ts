import { describe, expect, it } from '@jest/globals';
import { ownerActions } from './my-listings-api';

describe('ownerActions', () => {
  it('offers sold or let and withdraw while live, renew otherwise, nothing once removed by staff', () => {
    expect(ownerActions({ status: 'live', type: 'sale' })).toEqual(['sold', 'withdrawn']);
    expect(ownerActions({ status: 'live', type: 'rent' })).toEqual(['let', 'withdrawn']);
    expect(ownerActions({ status: 'expired', type: 'sale' })).toEqual(['live']);
    expect(ownerActions({ status: 'removed', type: 'sale' })).toEqual([]);
  });
});
