import { startTransition, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

/**
 * Renders `element` into `slot` (the header's bells and account menu, mounted by site-shell.ts) as a transition,
 * as Astro's islands are: React renders it in slices of a few milliseconds, so a phone hydrating the page's own
 * island does not meet one long task for the header as well.
 */
export function mountRoot(slot: HTMLElement, element: ReactNode): void {
  startTransition(() => createRoot(slot).render(element));
}
