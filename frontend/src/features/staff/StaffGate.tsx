import { useEffect, useState, type ReactNode } from 'react';
import { redirectToSignIn } from '../auth/protected-route';
import { hasSignedInHint } from '../../lib/signed-in-hint';

type Gate = { kind: 'checking' } | { kind: 'open' } | { kind: 'refused'; message: string };

/**
 * Staff pages open only for staff with two-factor on: the first call tells. A visitor is sent to
 * sign in; a signed-in person who is not staff, or staff without 2FA, reads why (with the way to
 * turn 2FA on).
 */
export function useStaffGate(probe: () => Promise<{ ok: boolean; status?: number; error?: string }>): Gate {
  const [gate, setGate] = useState<Gate>({ kind: 'checking' });
  useEffect(() => {
    if (!hasSignedInHint(document.cookie)) {
      redirectToSignIn();
      return;
    }
    void probe().then((outcome) => {
      if (outcome.ok) setGate({ kind: 'open' });
      else if (outcome.status === 401) redirectToSignIn();
      else setGate({ kind: 'refused', message: outcome.error ?? 'Something went wrong. Please reload the page.' });
    });
  }, []);
  return gate;
}

export function StaffRefusal({ message }: { message: string }): ReactNode {
  return (
    <div className="card staff-refusal" role="alert" data-testid="staff-refusal">
      <p>{message}</p>
      {/two-factor/i.test(message) && (
        <a className="btn btn--small" href="/profile">
          Open your profile
        </a>
      )}
    </div>
  );
}
