import { atom } from 'nanostores';

export type CookieConsent = 'accepted' | 'declined';

export const COOKIE_CONSENT_KEY = 'cookieConsent';

/**
 * The visitor's choice: undefined until read from localStorage (server render, before hydration),
 * null when no choice has been stored yet.
 */
export const $cookieConsent = atom<CookieConsent | null | undefined>(undefined);

export function parseCookieConsent(stored: string | null): CookieConsent | null {
  return stored === 'accepted' || stored === 'declined' ? stored : null;
}

export function loadCookieConsent(): void {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(COOKIE_CONSENT_KEY);
  } catch {
    // Storage can be blocked (privacy modes); then the banner is shown again.
  }
  $cookieConsent.set(parseCookieConsent(stored));
}

export function saveCookieConsent(consent: CookieConsent): void {
  try {
    localStorage.setItem(COOKIE_CONSENT_KEY, consent);
  } catch {
    // Not persisted, but the banner still closes for this page.
  }
  $cookieConsent.set(consent);
}
