import { useEffect, useState } from 'react';

/**
 * False during server rendering and until the island has hydrated. Buttons that only work with
 * JavaScript stay disabled until then, so an early click is not silently lost.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
