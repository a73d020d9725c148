import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { LIVE_CHANNEL } from '../../contracts/notifications.js';
import { EVENT_LOG_PAGE, RealtimeEventLog } from '../../infra/realtime/event-log.js';
import { Realtime } from '../../infra/realtime/realtime.js';
import { CurrentUser, SignedIn } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import { LiveEventPage, LiveEventsRequest, PollingDiagnostics, RealtimeDiagnostics } from './dto/live-events.response.js';
import { FollowedCategories, NotificationList, NotificationResponse, UnreadCount } from './dto/notification.response.js';
import { NotificationsService } from './notifications.service.js';

@ApiTags('notifications')
@Controller('notifications')
@SignedIn()
export class NotificationsController {
  constructor(@Inject(NotificationsService) private readonly notifications: NotificationsService) {}

  @Get()
  @ApiEnvelope(200, NotificationList, { description: 'The newest 10 and the unread count' })
  @ApiErrorEnvelope(401, 'Not signed in')
  list(@CurrentUser() user: User): Promise<NotificationList> {
    return this.notifications.list(user.id);
  }

  // Declared before ':id/read' so "read-all" is never taken for an id.
  @Put('read-all')
  @ApiEnvelope(200, UnreadCount)
  markAllRead(@CurrentUser() user: User): Promise<UnreadCount> {
    return this.notifications.markAllRead(user.id);
  }

  @Put(':id/read')
  @ApiEnvelope(200, NotificationResponse)
  @ApiErrorEnvelope(404, 'Notification not found (or not yours)')
  markRead(@CurrentUser() user: User, @Param('id') id: string): Promise<NotificationResponse> {
    return this.notifications.markRead(user.id, id);
  }

  @Delete(':id')
  @ApiEnvelope(200, UnreadCount, { description: 'Deleted; the unread count after it' })
  @ApiErrorEnvelope(404, 'Notification not found (or not yours)')
  delete(@CurrentUser() user: User, @Param('id') id: string): Promise<UnreadCount> {
    return this.notifications.delete(user.id, id);
  }
}

@ApiTags('notifications')
@Controller('follows')
@SignedIn()
export class FollowsController {
  constructor(@Inject(NotificationsService) private readonly notifications: NotificationsService) {}

  @Get()
  @ApiEnvelope(200, FollowedCategories)
  follows(@CurrentUser() user: User): Promise<FollowedCategories> {
    return this.notifications.follows(user.id);
  }

  @Post('categories/:slug')
  @HttpCode(200)
  @ApiEnvelope(200, FollowedCategories, { description: 'Followed (again is no error); the categories now followed' })
  @ApiErrorEnvelope(404, 'Category not found')
  follow(@CurrentUser() user: User, @Param('slug') slug: string): Promise<FollowedCategories> {
    return this.notifications.follow(user.id, slug);
  }

  @Delete('categories/:slug')
  @ApiEnvelope(200, FollowedCategories)
  @ApiErrorEnvelope(404, 'Category not found')
  unfollow(@CurrentUser() user: User, @Param('slug') slug: string): Promise<FollowedCategories> {
    return this.notifications.unfollow(user.id, slug);
  }
}

/** What a browser missed on its live channel, and the developer pages' diagnostics: the caller's own data only. */
@ApiTags('realtime')
@Controller()
@SignedIn()
export class LiveEventsController {
  constructor(
    @Inject(RealtimeEventLog) private readonly log: RealtimeEventLog,
    @Inject(Realtime) private readonly realtime: Realtime,
    @Inject(NotificationsService) private readonly notifications: NotificationsService,
  ) {}

  @Get('realtime/events')
  @ApiEnvelope(200, LiveEventPage, { description: 'The caller’s events after `after` (reconnect catch-up and polling)' })
  @ApiErrorEnvelope(400, 'after must be a whole number')
  async events(@CurrentUser() user: User, @Query() query: LiveEventsRequest): Promise<LiveEventPage> {
    const { events, latest } = await this.log.after(user.id, query.after ?? Number.MAX_SAFE_INTEGER);
    return { events, latest_seq: latest };
  }

  @Get('test/realtime')
  @ApiEnvelope(200, RealtimeDiagnostics)
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

  @Get('test/polling')
  @ApiEnvelope(200, PollingDiagnostics)
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
