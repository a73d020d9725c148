import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { LIVE_CHANNEL } from '../../contracts/notifications.js';
import { EVENT_LOG_PAGE, RealtimeEventLog } from '../../infra/realtime/event-log.js';
import { Realtime } from '../../infra/realtime/realtime.js';
import { CurrentUser, SignedIn } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import { PollingDiagnostics, RealtimeDiagnostics } from './dto/live-events.response.js';
import { NotificationsService } from './notifications.service.js';

/**
 * The developer pages' figures from the server: the caller's own live channel, counts only. Served
 * only with DIAGNOSTIC_ROUTES (diagnostics.module.ts).
 */
@ApiTags('realtime')
@Controller('test')
@SignedIn()
export class LiveDiagnosticsController {
  constructor(
    @Inject(RealtimeEventLog) private readonly log: RealtimeEventLog,
    @Inject(Realtime) private readonly realtime: Realtime,
    @Inject(NotificationsService) private readonly notifications: NotificationsService,
  ) {}

  @Get('realtime')
  @ApiEnvelope(200, RealtimeDiagnostics)
  @ApiErrorEnvelope(404, 'No API endpoint: the diagnostic routes are switched off (DIAGNOSTIC_ROUTES)')
  async realtimeDiagnostics(@CurrentUser() user: User): Promise<RealtimeDiagnostics> {
    const { latest } = await this.log.after(user.id, Number.MAX_SAFE_INTEGER);
    return {
      bus: this.realtime.busKind,
      your_sockets: await this.realtime.countUserSockets(user.id),
      heartbeat: { ping_interval_ms: LIVE_CHANNEL.pingIntervalMs, ping_timeout_ms: LIVE_CHANNEL.pingTimeoutMs },
      latest_seq: latest,
      server_time: new Date().toISOString(),
    };
  }

  @Get('polling')
  @ApiEnvelope(200, PollingDiagnostics)
  @ApiErrorEnvelope(404, 'No API endpoint: the diagnostic routes are switched off (DIAGNOSTIC_ROUTES)')
  async pollingDiagnostics(@CurrentUser() user: User): Promise<PollingDiagnostics> {
    const [{ latest }, kept, unread] = await Promise.all([
      this.log.after(user.id, Number.MAX_SAFE_INTEGER),
      this.log.count(user.id),
      this.notifications.unreadCount(user.id),
    ]);
    return {
      polling_interval_ms: LIVE_CHANNEL.pollingIntervalMs,
      page_size: EVENT_LOG_PAGE,
      latest_seq: latest,
      events_kept: kept,
      unread_notifications: unread,
      server_time: new Date().toISOString(),
    };
  }
}
