import { describe, expect, it } from '@jest/globals';
import { pageRoute } from './frontend.js';

describe('pageRoute', () => {
  it.each([
    ['index.html', '/'],
    ['contact.html', '/contact'],
    ['contact/index.html', '/contact'],
    ['blog/grazing-rights.html', '/blog/grazing-rights'],
  ])('serves %s at %s', (file, route) => {
    expect(pageRoute(file)).toBe(route);
  });

  it('gives the not-found page no route of its own', () => {
    expect(pageRoute('404.html')).toBeUndefined();
  });
});
