import { useStore } from '@nanostores/react';
import { useEffect, useId, useState } from 'react';
import { $cookieConsent, loadCookieConsent, saveCookieConsent } from '../../stores/cookie-consent';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import './cookie-consent.css';

/** Bottom banner asking for cookie consent; shown until a choice is stored in localStorage. */
function CookieConsent() {
  const consent = useStore($cookieConsent);
  const [customizing, setCustomizing] = useState(false);
  const [nonEssential, setNonEssential] = useState(false);
  const titleId = useId();
  const panelId = useId();
  const essentialId = useId();
  const optionalId = useId();

  useEffect(loadCookieConsent, []);

  if (consent !== null) return null;

  return (
    <section className="cookie-consent" aria-labelledby={titleId} data-testid="cookie-consent">
      <div className="cookie-consent__inner container">
        <button type="button" className="cookie-consent__close" aria-label="Close" onClick={() => saveCookieConsent('declined')}>
          <span aria-hidden="true">×</span>
        </button>
        <h2 id={titleId} className="cookie-consent__title">
          Cookie consent
        </h2>
        <p className="cookie-consent__text">
          We use essential cookies to keep Fieldmarket working. With your permission we would also like to use non-essential cookies to
          understand how the site is used. Read our <a href="/privacy">Privacy Policy</a> and <a href="/terms">Terms of Service</a>.
        </p>

        {customizing && (
          <fieldset id={panelId} className="cookie-consent__panel">
            <legend>Cookie preferences</legend>
            <div className="cookie-consent__option">
              <input id={essentialId} type="checkbox" checked disabled aria-describedby={`${essentialId}-hint`} />
              <label htmlFor={essentialId}>Essential cookies</label>
              <p id={`${essentialId}-hint`} className="cookie-consent__hint">
                Always on: needed for sign-in and security.
              </p>
            </div>
            <div className="cookie-consent__option">
              <input
                id={optionalId}
                type="checkbox"
                checked={nonEssential}
                aria-describedby={`${optionalId}-hint`}
                onChange={(event) => setNonEssential(event.target.checked)}
              />
              <label htmlFor={optionalId}>Non-essential cookies</label>
              <p id={`${optionalId}-hint`} className="cookie-consent__hint">
                Help us measure and improve the site.
              </p>
            </div>
            <button type="button" className="btn btn--small" onClick={() => saveCookieConsent(nonEssential ? 'accepted' : 'declined')}>
              Save Preferences
            </button>
          </fieldset>
        )}

        <div className="cookie-consent__actions btn-row">
          <button type="button" className="btn btn--small" onClick={() => saveCookieConsent('accepted')}>
            Accept All Cookies
          </button>
          <button
            type="button"
            className="btn btn--small btn--outline"
            aria-expanded={customizing}
            aria-controls={customizing ? panelId : undefined}
            onClick={() => setCustomizing((open) => !open)}
          >
            Customize
          </button>
          <button type="button" className="btn btn--small btn--ghost" onClick={() => saveCookieConsent('declined')}>
            Decline Non-Essential
          </button>
        </div>
      </div>
    </section>
  );
}

export default withErrorBoundary(CookieConsent);
