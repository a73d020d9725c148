import { useEffect, useRef } from 'react';

/**
 * Calls `reset` `ms` after `active` becomes true (a form's success state: SPEC §9 "Contact success
 * banner 3 s; feedback reset 3 s"); cancelled if the component goes first.
 */
export function useResetAfter(active: boolean, ms: number, reset: () => void): void {
  const latest = useRef(reset);
  latest.current = reset;
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => latest.current(), ms);
    return () => clearTimeout(timer);
  }, [active, ms]);
}
