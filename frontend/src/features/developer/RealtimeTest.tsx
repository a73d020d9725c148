import { useEffect, useState } from 'react';
import { onLiveEvent, startLiveChannel } from '../../stores/live-events';
import { measureLatency } from '../../lib/socket';
import { useStore } from '@nanostores/react';
import { $realtimeStatus } from '../../stores/realtime-status';
import { ConnectionTypeEntry, LIVE_TYPES, SignedInOnlyNote, useSignedInHint } from '../realtime/live-parts';
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
  const status = useStore($realtimeStatus);
  const signedIn = useSignedInHint();
  const [roundTrip, setRoundTrip] = useState<string>('');
  const [log, setLog] = useState<Received[]>([]);

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
  if (!signedIn) return <SignedInOnlyNote purpose="to test it" />;

  const measure = async () => {
    setRoundTrip('measuring...');
    const ms = await measureLatency();
    setRoundTrip(ms === null ? 'no answer: the socket is not connected' : `${ms} ms`);
  };
  return (
    <div className="diagnostics">
      <dl className="diagnostics__grid">
        <ConnectionTypeEntry status={status} />
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
