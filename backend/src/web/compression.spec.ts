import { describe, expect, it } from '@jest/globals';
import { acceptedEncoding } from './compression.js';

describe('the encoding an answer is compressed with', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['GZIP', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip, br;q=0.0', 'gzip'],
    ['br;q=0.5, gzip;q=1', 'br'],
    ['gzip;q=0, br;q=0', undefined],
    ['identity', undefined],
    ['deflate', undefined],
    ['brotli-ish, xgzip', undefined],
  ])('for Accept-Encoding "%s" is %s', (header, encoding) => {
    expect(acceptedEncoding({ 'accept-encoding': header })).toBe(encoding);
  });

  it('is none when the client sends no Accept-Encoding', () => {
    expect(acceptedEncoding({})).toBeUndefined();
  });
});
