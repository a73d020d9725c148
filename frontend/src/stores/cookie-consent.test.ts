import { describe, expect, it } from '@jest/globals';
import { parseCookieConsent } from './cookie-consent';

describe('parseCookieConsent', () => {
  it('reads the two stored choices', () => {
    expect(parseCookieConsent('accepted')).toBe('accepted');
    expect(parseCookieConsent('declined')).toBe('declined');
  });

  it('treats a missing or unknown value as no choice, so the banner shows', () => {
    expect(parseCookieConsent(null)).toBeNull();
    expect(parseCookieConsent('yes')).toBeNull();
  });
});
