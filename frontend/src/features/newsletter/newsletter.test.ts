import { describe, expect, it } from '@jest/globals';
import { newsletterEmailError } from './newsletter';

describe('newsletterEmailError', () => {
  it('asks for an address, then a valid one', () => {
    expect(newsletterEmailError('  ')).toBe('Email is required');
    expect(newsletterEmailError('farmer@')).toBe('Please enter a valid email address');
    expect(newsletterEmailError(' farmer@example.co.uk ')).toBeUndefined();
  });
});
