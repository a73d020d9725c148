import { COOKIE_CONSENT_KEY } from './consent';

/**
 * Marks `<html data-cookie-consent>` with the stored choice, or `pending` when there is none; CSS
 * shows the banner only while pending. It runs inline in `<head>` (CONSENT_GATE_SCRIPT), before the
 * first paint, so the banner neither flashes for visitors who have chosen nor appears late for
 * those who have not. It is serialised with toString(), so it must use nothing from outside itself.
 */
export function markStoredConsent(key: string): void {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(key);
  } catch {
    // Storage can be blocked (privacy modes); then the banner asks again.
  }
  document.documentElement.dataset['cookieConsent'] = stored === 'accepted' || stored === 'declined' ? stored : 'pending';
}

export const CONSENT_GATE_SCRIPT = `(${markStoredConsent.toString()})(${JSON.stringify(COOKIE_CONSENT_KEY)});`;
