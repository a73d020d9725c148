import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $realtimeStatus } from '../../stores/realtime-status';
import { withErrorBoundary } from '../errors/ErrorBoundary';

/**
 * Green dot while the real-time (socket.io) connection is up, red otherwise. It also starts that
 * connection; the socket client is loaded lazily so it does not delay the page.
 */
function ConnectionDot() {
  const status = useStore($realtimeStatus);

  useEffect(() => {
    import('../../lib/socket').then(({ startRealtime }) => startRealtime()).catch(() => $realtimeStatus.set('disconnected'));
  }, []);

  const label = status === 'connected' ? 'Real-time connected' : 'Real-time disconnected';
  return <span className="connection-dot" role="img" aria-label={label} title={label} data-testid="realtime-status" data-state={status} />;
}

export default withErrorBoundary(ConnectionDot);
