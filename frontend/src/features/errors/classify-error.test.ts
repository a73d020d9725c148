import { describe, expect, it } from '@jest/globals';
import { classifyError, ERROR_MESSAGES } from './classify-error';

describe('classifyError', () => {
  it.each([
    [new TypeError('Failed to fetch')],
    [new TypeError('Load failed')],
    [new TypeError('NetworkError when attempting to fetch resource.')],
    [new Error('NETWORK: Request timeout - the server is taking too long to respond. Please try again.')],
    [{ status: 0, message: '' }],
    [Object.assign(new Error('signal timed out'), { name: 'TimeoutError' })],
  ])('treats %p as a network error', (error) => {
    expect(classifyError(error)).toBe('network');
  });

  it.each([
    [{ status: 401 }],
    [new Error('AUTH: Session expired. Please sign in again.')],
    [new Error('Unauthorized')],
    ['Invalid or expired token'],
  ])('treats %p as an authentication error', (error) => {
    expect(classifyError(error)).toBe('authentication');
  });

  it.each([[new Error('boom')], [{ status: 500, message: 'Internal Server Error' }], [undefined], [null], [42]])(
    'treats %p as unknown',
    (error) => {
      expect(classifyError(error)).toBe('unknown');
    },
  );

  it('prefers authentication when a 401 also mentions a timeout', () => {
    expect(classifyError({ status: 401, message: 'token timeout' })).toBe('authentication');
  });

  it('has the wording of the spec for each kind', () => {
    expect(ERROR_MESSAGES).toEqual({
      network: "We're having trouble connecting to our servers.",
      authentication: 'There was an authentication issue. You may need to sign in again.',
      unknown: 'An unexpected error occurred. Please try again.',
    });
  });
});
