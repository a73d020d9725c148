import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { LIVE_CHANNEL } from '@contracts/notifications';
import { onLiveEvent, startLiveChannel } from '../../stores/live-events';
import { measureLatency } from '../../lib/socket';
import { receiveNotification, startNotifications } from '../notifications/notifications-store';
import { $realtimeStatus } from '../../stores/realtime-status';
import { testNotification } from '../notifications/notification-list';
import { pollingDiagnostics, realtimeDiagnostics, type PollingDiagnostics, type RealtimeDiagnostics } from './diagnostics-api';
import { ConnectionTypeEntry, LIVE_TYPES, SignedInOnlyNote, useSignedInHint } from './live-parts';
import './diagnostics.css';

/** SPEC §9: the demo refreshes every 2 s. */
export const REFRESH_MS = 2_000;

/**
 * The real-time demo and diagnostics page (/realtime, /realtime-demo): how this page receives live
 * events, the live channel's round trip, the server's view of the caller's own channel (counts
 * only, when the installation serves them), and the Test Badge.
 */
export default function RealtimeDiagnosticsPanel() {
  const status = useStore($realtimeStatus);
  const signedIn = useSignedInHint();
  const [latency, setLatency] = useState<number | null>(null);
  const [server, setServer] = useState<RealtimeDiagnostics | null>(null);
  const [polling, setPolling] = useState<PollingDiagnostics | null>(null);
  // The server's figures come from routes an installation switches on (DIAGNOSTIC_ROUTES); 404 when off.
  const [serverFiguresOff, setServerFiguresOff] = useState(false);
  const [received, setReceived] = useState(0);
  const [checkedAt, setCheckedAt] = useState<string>('');

  useEffect(() => {
    if (!signedIn) return;
    startLiveChannel();
    startNotifications();
    const stops = LIVE_TYPES.map((type) => onLiveEvent(type, () => setReceived((n) => n + 1)));
    let figuresOff = false;
    const refresh = async () => {
      const latencyMs = measureLatency();
      if (!figuresOff) {
        const [realtime, poll] = await Promise.all([realtimeDiagnostics(), pollingDiagnostics()]);
        setServer(realtime.ok ? realtime.data : null);
        setPolling(poll.ok ? poll.data : null);
        // Switched off stays off: not asked again every 2 s.
        figuresOff = !realtime.ok && realtime.status === 404;
        setServerFiguresOff(figuresOff);
      }
      setLatency(await latencyMs);
      setCheckedAt(new Date().toLocaleTimeString('en-GB'));
    };
    void refresh();
    const timer = setInterval(() => void refresh(), REFRESH_MS);
    return () => {
      clearInterval(timer);
      for (const stop of stops) stop();
    };
  }, [signedIn]);

  if (signedIn === null) return <p className="diagnostics__note">Checking...</p>;
  if (!signedIn) return <SignedInOnlyNote purpose="to see its diagnostics" />;

  return (
    <div className="diagnostics">
      <dl className="diagnostics__grid">
        <ConnectionTypeEntry status={status} />
        <div>
          <dt>Live channel round trip</dt>
          <dd data-testid="latency">{latency === null ? 'not connected' : `${latency} ms`}</dd>
        </div>
        <div>
          <dt>Live events received on this page</dt>
          <dd data-testid="events-received">{received}</dd>
        </div>
        <div>
          <dt>Your open connections (all tabs)</dt>
          <dd>{server?.your_sockets ?? 'unknown'}</dd>
        </div>
        <div>
          <dt>Between server processes</dt>
          <dd>{server?.bus ?? 'unknown'}</dd>
        </div>
        <div>
          <dt>Heartbeat</dt>
          <dd>
            every {LIVE_CHANNEL.pingIntervalMs / 1000} s, timeout {LIVE_CHANNEL.pingTimeoutMs / 1000} s
          </dd>
        </div>
        <div>
          <dt>Polling fallback</dt>
          <dd>every {LIVE_CHANNEL.pollingIntervalMs / 1000} s while the socket is not connected (it keeps retrying)</dd>
        </div>
        <div>
          <dt>Your events kept for catching up</dt>
          <dd>{polling ? `${polling.events_kept} (newest #${polling.latest_seq})` : 'unknown'}</dd>
        </div>
        <div>
          <dt>Unread notifications</dt>
          <dd>{polling?.unread_notifications ?? 'unknown'}</dd>
        </div>
      </dl>
      {serverFiguresOff && (
        <p className="diagnostics__note" data-testid="server-figures-off">
          The server's own figures (connections, events kept, unread count) are switched off on this server.
        </p>
      )}
      <p className="diagnostics__checked">Checked at {checkedAt || '...'}; refreshed every 2 seconds.</p>
      <button type="button" className="btn btn--outline" onClick={() => receiveNotification(testNotification())}>
        Test Badge
      </button>
    </div>
  );
}
