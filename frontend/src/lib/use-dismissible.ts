import { type RefObject, useEffect } from 'react';

/**
 * Closes an open dropdown (the header's bells) on Escape or on a click outside `root`. The click's
 * path decides, not its target: an item the click removes (dismiss, delete) still counts as inside.
 */
export function useDismissible(root: RefObject<HTMLElement | null>, open: boolean, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onClick = (event: MouseEvent) => {
      if (root.current && !event.composedPath().includes(root.current)) close();
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    document.addEventListener('click', onClick);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('click', onClick);
      document.removeEventListener('keydown', onKey);
    };
  }, [root, open, close]);
}
