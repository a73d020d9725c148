import { useEffect, useState } from 'react';
import { hasSignedInHint } from '../../lib/signed-in-hint';
import { onLiveEvent, startLiveChannel } from '../../lib/live-events';
import { measureLatency } from '../../lib/socket';
import { useAtom } from '../../lib/use-store';
import { $realtimeStatus } from '../../stores/realtime-status';
import { connectionType, LIVE_TYPES } from '../realtime/RealtimeDiagnostics';
import '../realtime/diagnostics.css';
import './developer.css';

/** Events kept in the log on screen, newest first. */
const LOG_LENGTH = 20;

interface Received {
  type: string;
  at: string;
}

/**
 * The real-time test page (/test): opens the live channel, measures its round trip when asked, and
 * lists each live event this page receives as it arrives (type and time), however it came.
 */
export default function RealtimeTest() {
  const status = useAtom($realtimeStatus);
  const [signedIn, setSignedIn] = useState<boolean | null>(null);
  const [roundTrip, setRoundTrip] = useState<string>('');
  const [log, setLog] = useState<Received[]>([]);

  useEffect(() => setSignedIn(hasSignedInHint(document.cookie)), []);

  useEffect(() => {
    if (!signedIn) return;
    startLiveChannel();
    const stops = LIVE_TYPES.map((type) =>
      onLiveEvent(type, () => setLog((now) => [{ type, at: new Date().toLocaleTimeString('en-GB') }, ...now].slice(0, LOG_LENGTH))),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [signedIn]);

  if (signedIn === null) return <p className="diagnostics__note">Checking...</p>;
  if (!signedIn) {
    return (
      <p className="diagnostics__note">
        The live channel opens for signed-in users only. <a href="/signin">Sign in</a> to test it.
      </p>
    );
  }

  const type = connectionType(status);
  const measure = async () => {
    setRoundTrip('measuring...');
    const ms = await measureLatency();
    setRoundTrip(ms === null ? 'no answer: the socket is not connected' : `${ms} ms`);
  };
  return (
    <div className="diagnostics">
      <dl className="diagnostics__grid">
        <div>
          <dt>Connection type</dt>
          <dd data-testid="connection-type" data-type={type}>
            <span className={`live-dot-inline live-dot-inline--${type}`} aria-hidden="true" /> {type}
          </dd>
        </div>
        <div>
          <dt>Round trip</dt>
          <dd data-testid="round-trip">{roundTrip || 'not measured yet'}</dd>
        </div>
      </dl>
      <button type="button" className="btn btn--outline" onClick={() => void measure()}>
        Measure round trip
      </button>
      <h2>Live events received on this page</h2>
      {log.length === 0 ? (
        <p className="diagnostics__note" data-testid="event-log-empty">
          None yet. Events arrive here as they happen: a message to you, a listing in a category you follow, a change to your profile.
        </p>
      ) : (
        <ol className="dev-log" data-testid="event-log">
          {log.map((event, index) => (
            <li key={`${event.at}-${index}`}>
              <code>{event.type}</code> at {event.at}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
