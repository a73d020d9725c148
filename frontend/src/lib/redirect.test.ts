import { describe, expect, it } from '@jest/globals';
import { afterSignInPath, signInPathFor } from './redirect';

describe('afterSignInPath', () => {
  it('goes to a same-site path from the redirect parameter', () => {
    expect(afterSignInPath('?redirect=%2Fprofile', '/browse')).toBe('/profile');
    expect(afterSignInPath('?redirect=/messages?conversation=7', '/browse')).toBe('/messages?conversation=7');
    expect(afterSignInPath('?redirect=%2Fmessages%3Fconversation%3D7', '/browse')).toBe('/messages?conversation=7');
  });

  it('ignores other sites and tricks that browsers read as other sites', () => {
    for (const evil of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'javascript:alert(1)',
      '/..//evil.example/phish',
      '/.//evil.example',
      '/x/../..//evil.example',
      '/%2F%2Fevil.example',
      '/%5Cevil.example',
      '/\n/evil.example',
    ]) {
      expect(afterSignInPath(`?redirect=${encodeURIComponent(evil)}`, '/browse')).toBe('/browse');
    }
  });

  it('falls back without a parameter, and never returns to the sign-in pages', () => {
    expect(afterSignInPath('', '/')).toBe('/');
    expect(afterSignInPath('?redirect=/signin', '/')).toBe('/');
    expect(afterSignInPath('?redirect=/signup?x=1', '/')).toBe('/');
  });
});

describe('signInPathFor', () => {
  it('remembers where the visitor was going', () => {
    expect(signInPathFor({ pathname: '/profile', search: '' })).toBe('/signin?redirect=%2Fprofile');
    expect(signInPathFor({ pathname: '/messages', search: '?conversation=7' })).toBe('/signin?redirect=%2Fmessages%3Fconversation%3D7');
  });
});
