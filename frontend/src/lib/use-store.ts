import type { ReadableAtom } from 'nanostores';
import { useEffect, useState } from 'react';

/**
 * An atom's value in an island, kept current. (@nanostores/react imports react itself, which is
 * not the preact/compat alias when pages are prerendered.)
 */
export function useAtom<T>(atom: ReadableAtom<T>): T {
  const [value, setValue] = useState(atom.get());
  useEffect(() => atom.subscribe(setValue), [atom]);
  return value;
}
