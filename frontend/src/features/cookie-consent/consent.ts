export type CookieConsent = 'accepted' | 'declined';

/** localStorage key of the visitor's choice (spec §9). */
export const COOKIE_CONSENT_KEY = 'cookieConsent';

/** Stores the choice and hides the banner. */
export function saveCookieConsent(consent: CookieConsent): void {
  try {
    localStorage.setItem(COOKIE_CONSENT_KEY, consent);
  } catch {
    // Not persisted, but the banner still closes for this page.
  }
  document.documentElement.dataset['cookieConsent'] = consent;
}

/** Wires the banner's buttons: Accept, Decline and Close store a choice; Customize opens the preferences. */
export function setupCookieConsent(banner: HTMLElement): void {
  const customize = banner.querySelector<HTMLButtonElement>('[data-consent-customize]');
  const panel = banner.querySelector<HTMLElement>('[data-consent-panel]');
  const nonEssential = banner.querySelector<HTMLInputElement>('[data-consent-non-essential]');

  for (const button of banner.querySelectorAll<HTMLButtonElement>('[data-consent-choice]')) {
    const choice = button.dataset['consentChoice'];
    if (choice === 'accepted' || choice === 'declined') button.addEventListener('click', () => saveCookieConsent(choice));
  }
  customize?.addEventListener('click', () => {
    if (!panel) return;
    panel.hidden = !panel.hidden;
    customize.setAttribute('aria-expanded', String(!panel.hidden));
  });
  banner
    .querySelector('[data-consent-save]')
    ?.addEventListener('click', () => saveCookieConsent(nonEssential?.checked ? 'accepted' : 'declined'));
  // While the banner is up, what the page scrolls to (a #link's target, a field the keyboard moves to) stops
  // above it (scroll-padding-bottom in cookie-consent.css); its height depends on how its words wrap.
  new ResizeObserver(() => document.documentElement.style.setProperty('--cookie-consent-height', `${banner.offsetHeight}px`)).observe(
    banner,
  );
}
