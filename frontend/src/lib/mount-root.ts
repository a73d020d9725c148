import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

/** Renders `element` into `slot`: the header's account menu and bells, mounted by site-shell.ts once the session is known. */
export function mountRoot(slot: HTMLElement, element: ReactNode): void {
  createRoot(slot).render(element);
}
