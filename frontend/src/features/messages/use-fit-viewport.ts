import { type RefObject, useLayoutEffect } from 'react';

/** Room left under the element (the page's bottom padding), and the least height it keeps on a tiny screen. */
const BOTTOM_GAP_PX = 16;
const MIN_HEIGHT_PX = 288;

/**
 * Sets `--fit-height` on the element to the height left between its top and the bottom of what the
 * user sees: the visual viewport, which shrinks when a phone's on-screen keyboard opens (100dvh does
 * not). The chat sizes itself with it, so its composer and Send button stay on screen.
 */
export function useFitViewport(ref: RefObject<HTMLElement | null>, key: unknown): void {
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const viewport = window.visualViewport;
    const fit = () => {
      const visible = viewport?.height ?? window.innerHeight;
      const top = element.getBoundingClientRect().top + window.scrollY;
      element.style.setProperty('--fit-height', `${Math.max(MIN_HEIGHT_PX, Math.floor(visible - top - BOTTOM_GAP_PX))}px`);
    };
    fit();
    window.addEventListener('resize', fit);
    viewport?.addEventListener('resize', fit);
    return () => {
      window.removeEventListener('resize', fit);
      viewport?.removeEventListener('resize', fit);
    };
  }, [ref, key]);
}
