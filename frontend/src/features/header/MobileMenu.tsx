import { useCallback, useId, useRef, useState } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { ACCOUNT_LINKS, BROWSE_LINKS, type NavLink, PRIMARY_LINKS } from './nav-links';
import { useDismiss } from './use-dismiss';

/** Hamburger button and the panel that repeats the header's links on small screens. */
function MobileMenu() {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const browseHeadingId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, rootRef, toggleRef);

  return (
    <div ref={rootRef} className="mobile-menu">
      <button
        ref={toggleRef}
        type="button"
        className="mobile-menu__toggle"
        aria-label="Menu"
        aria-expanded={open}
        aria-controls={panelId}
        disabled={!hydrated}
        onClick={() => setOpen((value) => !value)}
      >
        <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true">
          <path
            d={open ? 'M6 6l12 12M18 6 6 18' : 'M4 7h16M4 12h16M4 17h16'}
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          />
        </svg>
      </button>
      <div id={panelId} className="mobile-menu__panel" hidden={!open}>
        <nav aria-label="Mobile" className="container">
          <p id={browseHeadingId} className="mobile-menu__heading">
            Browse
          </p>
          <MenuLinks links={BROWSE_LINKS} labelledBy={browseHeadingId} />
          <MenuLinks links={PRIMARY_LINKS} modifier="primary" />
          <div className="mobile-menu__account btn-row">
            <a className="btn btn--outline" href={ACCOUNT_LINKS.signUp.href}>
              {ACCOUNT_LINKS.signUp.label}
            </a>
            <a className="btn" href={ACCOUNT_LINKS.signIn.href}>
              {ACCOUNT_LINKS.signIn.label}
            </a>
          </div>
        </nav>
      </div>
    </div>
  );
}

export default withErrorBoundary(MobileMenu);

function MenuLinks({ links, labelledBy, modifier }: { links: readonly NavLink[]; labelledBy?: string; modifier?: string }) {
  return (
    <ul className={`mobile-menu__list${modifier ? ` mobile-menu__list--${modifier}` : ''}`} aria-labelledby={labelledBy}>
      {links.map((link) => (
        <li key={link.href}>
          <a className="mobile-menu__link" href={link.href}>
            {link.label}
          </a>
        </li>
      ))}
    </ul>
  );
}
