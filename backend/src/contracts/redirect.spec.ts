import { describe, expect, it } from '@jest/globals';
import { safeRedirect } from './redirect.js';

describe('safeRedirect', () => {
  it.each([
    ['/messages', '/messages'],
    ['/messages?conversation=7#latest', '/messages?conversation=7#latest'],
    ['/listing/42?tab=photos', '/listing/42?tab=photos'],
    ['/browse/../profile', '/profile'],
    ['/search?q=a%2Fb', '/search?q=a%2Fb'],
  ])('keeps the path on this site %j', (raw, path) => {
    expect(safeRedirect(raw)).toBe(path);
  });

  it.each([
    // Dot segments that resolve to "//host": a browser sent there leaves the site.
    '/..//evil.example/phish',
    '/.//evil.example',
    '/x/../..//evil.example',
    '/%2e%2e//evil.example',
    '/%2E//evil.example',
    // Other sites and protocol-relative addresses.
    '//evil.example',
    '///evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'messages',
    // Backslashes, which browsers read as slashes, written or escaped.
    '/\\evil.example',
    '\\\\evil.example',
    '/..\\/evil.example',
    '/%5Cevil.example',
    '/%5C%5Cevil.example',
    // Escaped slashes, which a server that decodes before redirecting turns into "//host".
    '/%2F%2Fevil.example',
    '/%2F/evil.example',
    '/..%2F%2Fevil.example',
    // Tabs and line breaks, which browsers drop.
    '/\t/evil.example',
    '/\n/evil.example',
    '/\r\n/evil.example',
    '/%09/evil.example',
    '/%0a/evil.example',
    // A broken escape.
    '/%E0%A4%A',
  ])('refuses %j', (raw) => {
    expect(safeRedirect(raw)).toBeNull();
  });
});
