import { afterEach, describe, expect, it } from '@jest/globals';
import { COOKIE_CONSENT_KEY, saveCookieConsent } from './consent';
import { CONSENT_GATE_SCRIPT } from './consent-gate';

/** A stand-in for localStorage holding the given entries; `blocked` makes every access throw. */
function fakeStorage(entries: Record<string, string> = {}, blocked = false) {
  const items = new Map(Object.entries(entries));
  const guard = () => {
    if (blocked) throw new DOMException('The operation is insecure.', 'SecurityError');
  };
  return {
    items,
    getItem: (key: string) => (guard(), items.get(key) ?? null),
    setItem: (key: string, value: string) => (guard(), void items.set(key, value)),
  };
}

function fakeDocument() {
  return { documentElement: { dataset: {} as Record<string, string> } };
}

/** Runs the inline <head> script as the browser would, against the given storage. */
function runGate(storage: ReturnType<typeof fakeStorage>): string | undefined {
  const document = fakeDocument();
  new Function('localStorage', 'document', CONSENT_GATE_SCRIPT)(storage, document);
  return document.documentElement.dataset['cookieConsent'];
}

describe('the consent gate script', () => {
  it('marks the page with a stored choice, so the banner stays hidden', () => {
    expect(runGate(fakeStorage({ [COOKIE_CONSENT_KEY]: 'accepted' }))).toBe('accepted');
    expect(runGate(fakeStorage({ [COOKIE_CONSENT_KEY]: 'declined' }))).toBe('declined');
  });

  it('marks the page pending when nothing usable is stored, so the banner shows', () => {
    expect(runGate(fakeStorage())).toBe('pending');
    expect(runGate(fakeStorage({ [COOKIE_CONSENT_KEY]: 'yes' }))).toBe('pending');
    expect(runGate(fakeStorage({ [COOKIE_CONSENT_KEY]: 'accepted' }, true))).toBe('pending');
  });
});

describe('saveCookieConsent', () => {
  const globals = globalThis as { localStorage?: unknown; document?: unknown };
  afterEach(() => {
    delete globals.localStorage;
    delete globals.document;
  });

  it('stores the choice under cookieConsent and marks the page decided', () => {
    const storage = fakeStorage();
    const document = fakeDocument();
    Object.assign(globals, { localStorage: storage, document });
    saveCookieConsent('declined');
    expect(storage.items.get('cookieConsent')).toBe('declined');
    expect(document.documentElement.dataset['cookieConsent']).toBe('declined');
  });

  it('still closes the banner when storage is blocked', () => {
    const document = fakeDocument();
    Object.assign(globals, { localStorage: fakeStorage({}, true), document });
    saveCookieConsent('accepted');
    expect(document.documentElement.dataset['cookieConsent']).toBe('accepted');
  });
});
