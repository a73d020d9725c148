import { api } from '../../lib/api';
import type { components } from '../../lib/api-types';
import { settle, timeoutSignal, type ApiResult } from '../../lib/api-result';

export type NotificationItem = components['schemas']['NotificationResponse'];
export type NotificationList = components['schemas']['NotificationList'];

const FAILED = 'Could not update notifications. Please try again.';

export const fetchNotifications = (): Promise<ApiResult<NotificationList>> =>
  settle(api.GET('/api/notifications', { signal: timeoutSignal() }), 'Could not load notifications');

export const markNotificationRead = (id: string): Promise<ApiResult<NotificationItem>> =>
  settle(api.PUT('/api/notifications/{id}/read', { params: { path: { id } }, signal: timeoutSignal() }), FAILED);

export const markAllNotificationsRead = (): Promise<ApiResult<{ unread_count: number }>> =>
  settle(api.PUT('/api/notifications/read-all', { signal: timeoutSignal() }), FAILED);

export const deleteNotification = (id: string): Promise<ApiResult<{ unread_count: number }>> =>
  settle(api.DELETE('/api/notifications/{id}', { params: { path: { id } }, signal: timeoutSignal() }), FAILED);
