import { useCallback, useId, useRef, useState, type FocusEvent } from 'react';
import { useHydrated } from '../../lib/use-hydrated';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { BROWSE_LINKS } from './nav-links';
import { useDismiss } from './use-dismiss';

/** The header's Browse dropdown (a disclosure button with a list of category links). */
function BrowseMenu() {
  const [open, setOpen] = useState(false);
  const hydrated = useHydrated();
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const listId = useId();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(open, close, rootRef, toggleRef);

  // Close when keyboard focus leaves the menu. A blur towards nothing (Safari does not focus
  // clicked links) is left to the outside-press handler so the click still lands.
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget;
    if (next instanceof Node && !event.currentTarget.contains(next)) close();
  };

  return (
    <div ref={rootRef} className="browse-menu" onBlur={onBlur}>
      <button
        ref={toggleRef}
        type="button"
        className="nav-link browse-menu__toggle"
        aria-expanded={open}
        aria-controls={listId}
        disabled={!hydrated}
        onClick={() => setOpen((value) => !value)}
      >
        Browse
        <svg className="browse-menu__chevron" viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
          <path d="M5 7.5 10 12.5 15 7.5" fill="none" stroke="currentColor" strokeWidth="2" />
        </svg>
      </button>
      <ul id={listId} className="browse-menu__list" hidden={!open}>
        {BROWSE_LINKS.map((link) => (
          <li key={link.href}>
            <a className="browse-menu__link" href={link.href}>
              {link.label}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export default withErrorBoundary(BrowseMenu);
