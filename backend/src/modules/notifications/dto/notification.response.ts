import { ApiProperty } from '@nestjs/swagger';
import {
  FOLLOWABLE_CATEGORIES,
  NOTIFICATION_KINDS,
  NOTIFICATION_TYPES,
  type NotificationKind,
  type NotificationType,
  type NotificationView,
} from '../../../contracts/notifications.js';

export class NotificationResponse implements NotificationView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ enum: NOTIFICATION_KINDS })
  kind!: NotificationKind;

  @ApiProperty({ enum: NOTIFICATION_TYPES })
  type!: NotificationType;

  @ApiProperty({ example: 'New Listing Available' })
  title!: string;

  @ApiProperty()
  message!: string;

  @ApiProperty({ type: String, nullable: true, description: 'A path on the site that View opens', example: '/listing/…' })
  action_url!: string | null;

  @ApiProperty()
  read!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}

export class NotificationList {
  @ApiProperty({ type: NotificationResponse, isArray: true, description: 'The newest 10, newest first' })
  notifications!: NotificationResponse[];

  @ApiProperty({ description: 'Unread notifications in all (the badge)' })
  unread_count!: number;
}

export class UnreadCount {
  @ApiProperty()
  unread_count!: number;
}

export class FollowedCategories {
  @ApiProperty({ enum: FOLLOWABLE_CATEGORIES, isArray: true })
  categories!: string[];
}
