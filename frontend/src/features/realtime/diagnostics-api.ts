import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { settle, timeoutSignal, type ApiResult } from '../../lib/api-result';

export type RealtimeDiagnostics = components['schemas']['RealtimeDiagnostics'];
export type PollingDiagnostics = components['schemas']['PollingDiagnostics'];

export const realtimeDiagnostics = (): Promise<ApiResult<RealtimeDiagnostics>> =>
  settle(api.GET('/api/test/realtime', { signal: timeoutSignal() }), 'Realtime diagnostics failed');

export const pollingDiagnostics = (): Promise<ApiResult<PollingDiagnostics>> =>
  settle(api.GET('/api/test/polling', { signal: timeoutSignal() }), 'Polling diagnostics failed');
