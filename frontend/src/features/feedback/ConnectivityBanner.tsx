import { useEffect, useRef, useState } from 'react';
import { api } from '../../lib/api';
import { timeoutSignal } from '../../lib/api-result';
import { withErrorBoundary } from '../errors/ErrorBoundary';
import { connectivityBanner, HEALTH_CHECK_INTERVAL_MS, RECOVERED_NOTICE_MS, serverStateOf, type ServerState } from './connectivity';

async function checkServer(): Promise<ServerState> {
  try {
    const { data, error, response } = await api.GET('/api/health', { signal: timeoutSignal() });
    return serverStateOf(response.status, data ?? error);
  } catch {
    return 'offline';
  }
}

/**
 * The feedback page's connectivity banner (SPEC §2, §4, §8): GET /api/health every 30 seconds and
 * at once when the browser comes back online, plus the browser's own online and offline events.
 */
function ConnectivityBanner() {
  const [server, setServer] = useState<ServerState>('checking');
  const [browserOnline, setBrowserOnline] = useState(true);
  const [recovered, setRecovered] = useState(false);
  const hadProblem = useRef(false);

  useEffect(() => {
    let stopped = false;
    const check = async () => {
      const state = await checkServer();
      if (!stopped) setServer(state);
    };
    const online = () => {
      setBrowserOnline(true);
      void check();
    };
    const offline = () => setBrowserOnline(false);
    setBrowserOnline(navigator.onLine);
    void check();
    const timer = setInterval(() => void check(), HEALTH_CHECK_INTERVAL_MS);
    window.addEventListener('online', online);
    window.addEventListener('offline', offline);
    return () => {
      stopped = true;
      clearInterval(timer);
      window.removeEventListener('online', online);
      window.removeEventListener('offline', offline);
    };
  }, []);

  // "All systems operational" shows for a moment after a problem clears, then the banner goes.
  const healthy = browserOnline && server === 'online';
  useEffect(() => {
    if (!healthy) {
      if (!browserOnline || server === 'offline') hadProblem.current = true;
      setRecovered(false);
      return;
    }
    if (!hadProblem.current) return;
    hadProblem.current = false;
    setRecovered(true);
    const timer = setTimeout(() => setRecovered(false), RECOVERED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [healthy, browserOnline, server]);

  const banner = connectivityBanner(server, browserOnline, recovered);
  return (
    <div role="status" aria-live="polite" className="connectivity" data-testid="connectivity">
      {banner && (
        <p className={`alert connectivity__banner connectivity__banner--${banner.tone}`} data-testid="connectivity-banner">
          {banner.text}
        </p>
      )}
    </div>
  );
}

export default withErrorBoundary(ConnectivityBanner);
