import { useEffect, useState } from 'react';
import { api } from '../../lib/api';
import { settle, timeoutSignal } from '../../lib/api-result';
import type { components } from '../../lib/api-types';
import { hasSignedInHint } from '../../lib/signed-in-hint';
import { useHydrated } from '../../lib/use-hydrated';
import { startLiveChannel } from '../../stores/live-events';
import { useStore } from '@nanostores/react';
import { $realtimeStatus } from '../../stores/realtime-status';
import { connectionType, SignedInOnlyNote } from '../realtime/live-parts';
import '../realtime/diagnostics.css';
import './developer.css';

type Health = components['schemas']['HealthResponse'];

/** What GET /api/test/realtime's answer says about the diagnostic routes: 404 is switched off. */
function diagnosticRoutesState(status: number): string {
  if (status === 404) return 'switched off (DIAGNOSTIC_ROUTES)';
  if (status === 0) return 'unknown: no answer';
  return 'switched on';
}

/**
 * The development status page (/dev): where this site's parts answer, the server's health as GET
 * /api/health reports it, whether the diagnostic routes are on, and this page's live channel.
 */
export default function DevStatus() {
  const status = useStore($realtimeStatus);
  const [origin, setOrigin] = useState('');
  const hydrated = useHydrated();
  const [signedIn, setSignedIn] = useState(false);
  // The health, or why there is none: a 503's envelope names what is down.
  const [health, setHealth] = useState<Health | { error: string } | null>(null);
  const [diagnostics, setDiagnostics] = useState('checking...');
  const [checkedAt, setCheckedAt] = useState('');

  const check = async () => {
    setHealth(null);
    const [answer, routes] = await Promise.all([
      settle<Health>(api.GET('/api/health', { signal: timeoutSignal() }), 'Health check failed'),
      settle(api.GET('/api/test/realtime', { signal: timeoutSignal() }), 'Diagnostics failed'),
    ]);
    setHealth(answer.ok ? answer.data : { error: answer.error });
    setDiagnostics(diagnosticRoutesState(routes.ok ? 200 : routes.status));
    setCheckedAt(new Date().toLocaleTimeString('en-GB'));
  };

  useEffect(() => {
    setOrigin(window.location.origin);
    const signed = hasSignedInHint(document.cookie);
    setSignedIn(signed);
    if (signed) startLiveChannel();
    void check();
  }, []);

  return (
    <div className="diagnostics">
      <dl className="diagnostics__grid">
        <div>
          <dt>Pages</dt>
          <dd data-testid="dev-origin">{origin || '...'}</dd>
        </div>
        <div>
          <dt>API</dt>
          <dd>{origin ? `${origin}/api` : '...'}</dd>
        </div>
        <div>
          <dt>Live channel</dt>
          <dd>{origin ? `${origin}/socket.io` : '...'}</dd>
        </div>
        <div>
          <dt>This page's live connection</dt>
          <dd data-testid="dev-connection">{signedIn ? connectionType(status) : 'none'}</dd>
        </div>
        <div>
          <dt>Diagnostic routes</dt>
          <dd data-testid="dev-diagnostics">{diagnostics}</dd>
        </div>
      </dl>
      {!signedIn && <SignedInOnlyNote purpose="to see yours" />}
      <h2>Server health</h2>
      {health === null && <p className="diagnostics__note">Checking...</p>}
      {health && 'error' in health && (
        <p className="alert alert--danger" role="alert">
          {health.error}
        </p>
      )}
      {health && 'checks' in health && (
        <>
          <p data-testid="dev-health">Overall: {health.status}</p>
          <ul className="dev-log">
            {health.checks.map((entry) => (
              <li key={entry.name}>
                <strong>{entry.name}</strong>: {entry.status}, {entry.message}
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="diagnostics__checked">
        Checked at {checkedAt || '...'}.{' '}
        <button type="button" className="btn btn--small btn--outline" onClick={() => void check()} disabled={!hydrated}>
          Check again
        </button>
      </p>
    </div>
  );
}
