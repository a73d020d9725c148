import type { ReactNode } from 'react';
import { useHydrated } from './use-hydrated';

/**
 * An island painted on the server with its content (the profile, the conversation list) is readable before
 * its scripts run; its buttons and fields are held disabled until then, as one disabled fieldset, so an early
 * tap is visibly not yet possible rather than silently lost.
 */
export function HeldUntilHydrated({ children }: { children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <fieldset className="held-until-hydrated" role="presentation" disabled={!hydrated}>
      {children}
    </fieldset>
  );
}
