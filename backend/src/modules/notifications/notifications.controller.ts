import { Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApiEnvelope, ApiErrorEnvelope } from '../../common/api-docs.js';
import { RealtimeEventLog } from '../../infra/realtime/event-log.js';
import { CurrentUser, SignedIn } from '../auth/access.js';
import type { User } from '../users/user.entity.js';
import { LiveEventPage, LiveEventsRequest } from './dto/live-events.response.js';
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

/** What a browser missed on its live channel: the caller's own events only. */
@ApiTags('realtime')
@Controller()
@SignedIn()
export class LiveEventsController {
  constructor(@Inject(RealtimeEventLog) private readonly log: RealtimeEventLog) {}

  @Get('realtime/events')
  @ApiEnvelope(200, LiveEventPage, { description: 'The caller’s events after `after` (reconnect catch-up and polling)' })
  @ApiErrorEnvelope(400, 'after must be a whole number')
  async events(@CurrentUser() user: User, @Query() query: LiveEventsRequest): Promise<LiveEventPage> {
    const { events, latest } = await this.log.after(user.id, query.after ?? Number.MAX_SAFE_INTEGER);
    return { events, latest_seq: latest };
  }
}
