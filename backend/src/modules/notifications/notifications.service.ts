import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger, NotFoundException, type OnModuleInit } from '@nestjs/common';
import {
  FOLLOWABLE_CATEGORIES,
  NOTIFICATION_LIST_CAP,
  NOTIFICATION_RETENTION_DAYS,
  NOTIFICATION_TITLES,
  type FollowableCategory,
  type NotificationKind,
  type NotificationType,
  type NotificationView,
} from '../../contracts/notifications.js';
import { deleteInBatches } from '../../infra/database/batched-delete.js';
import { ScheduledJob } from '../../infra/queue/job-registry.js';
import { UserDataRegistry } from '../users/user-data.registry.js';
import type { FollowedCategories, NotificationList, UnreadCount } from './dto/notification.response.js';
import { CategoryFollow, Notification } from './notification.entity.js';
import { isUuid } from '../../common/uuid.js';

export const NOTIFICATION_NOT_FOUND = 'Notification not found';
export const CATEGORY_NOT_FOUND = 'Category not found';

/** What a subscriber stores for each recipient. */
export interface NotificationDraft {
  kind: NotificationKind;
  type: NotificationType;
  message: string;
  actionUrl?: string;
  /** The person the text names, if any: their account's deletion takes the notification away. */
  aboutUserId?: string;
  /** The domain event's id: one notification per event and user, however often the job runs. */
  sourceKey: string;
}

interface NotificationRow {
  id: string;
  user_id: string;
  kind: NotificationKind;
  type: NotificationType;
  title: string;
  message: string;
  action_url: string | null;
  read: boolean;
  created_at: Date | string;
}

export const toView = (n: Notification): NotificationView => ({
  id: n.id,
  kind: n.kind,
  type: n.type,
  title: n.title,
  message: n.message,
  action_url: n.actionUrl ?? null,
  read: n.read,
  created_at: n.createdAt.toISOString(),
});

const rowToView = (row: NotificationRow): NotificationView => ({
  id: row.id,
  kind: row.kind,
  type: row.type,
  title: row.title,
  message: row.message,
  action_url: row.action_url,
  read: row.read,
  created_at: new Date(row.created_at).toISOString(),
});

/** The bell's notifications and the categories people follow. Every call is scoped to its user. */
@Injectable()
export class NotificationsService implements OnModuleInit {
  private readonly logger = new Logger('Notifications');

  constructor(
    @Inject(EntityManager) private readonly em: EntityManager,
    @Inject(UserDataRegistry) private readonly userData: UserDataRegistry,
  ) {}

  onModuleInit(): void {
    this.userData.addPart({
      name: 'notifications',
      exportFor: async (userId) =>
        (await this.em.fork().find(Notification, { user: userId }, { orderBy: { createdAt: 'asc' } })).map(toView),
    });
    this.userData.addPart({ name: 'followed_categories', exportFor: async (userId) => (await this.follows(userId)).categories });
  }

  async list(userId: string): Promise<NotificationList> {
    const em = this.em.fork();
    const [notifications, unread] = await Promise.all([
      em.find(Notification, { user: userId }, { orderBy: { createdAt: 'desc', id: 'desc' }, limit: NOTIFICATION_LIST_CAP }),
      em.count(Notification, { user: userId, read: false }),
    ]);
    return { notifications: notifications.map(toView), unread_count: unread };
  }

  async unreadCount(userId: string): Promise<number> {
    return this.em.fork().count(Notification, { user: userId, read: false });
  }

  async markRead(userId: string, id: string): Promise<NotificationView> {
    const em = this.em.fork();
    const notification = await this.own(em, userId, id);
    notification.read = true;
    await em.flush();
    return toView(notification);
  }

  async markAllRead(userId: string): Promise<UnreadCount> {
    await this.em.fork().nativeUpdate(Notification, { user: userId, read: false }, { read: true });
    return { unread_count: 0 };
  }

  async delete(userId: string, id: string): Promise<UnreadCount> {
    const em = this.em.fork();
    const removed = isUuid(id) ? await em.nativeDelete(Notification, { id, user: userId }) : 0;
    if (removed === 0) throw new NotFoundException(NOTIFICATION_NOT_FOUND);
    return { unread_count: await this.unreadCount(userId) };
  }

  // ----- Following categories -----

  async follows(userId: string): Promise<FollowedCategories> {
    const rows = await this.em.fork().find(CategoryFollow, { user: userId }, { orderBy: { createdAt: 'asc' } });
    return { categories: rows.map((row) => row.category) };
  }

  async follow(userId: string, slug: string): Promise<FollowedCategories> {
    const category = followable(slug);
    await this.em
      .fork()
      .getConnection()
      .execute(`insert into category_follow (user_id, category, created_at) values (?, ?, now()) on conflict do nothing`, [
        userId,
        category,
      ]);
    return this.follows(userId);
  }

  async unfollow(userId: string, slug: string): Promise<FollowedCategories> {
    await this.em.fork().nativeDelete(CategoryFollow, { user: userId, category: followable(slug) });
    return this.follows(userId);
  }

  /** The users following any of `categories`, except `exceptUserId`. */
  async followersOf(categories: string[], exceptUserId: string): Promise<string[]> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<Array<{ user_id: string }>>(
        `select distinct f.user_id from category_follow f join app_user u on u.id = f.user_id
          where f.category in (?) and f.user_id <> ? and u.deleted_at is null`,
        [categories, exceptUserId],
      );
    return rows.map((row) => row.user_id);
  }

  // ----- Creating (subscribers) -----

  /**
   * Stores the notification for each user, once per (user, source key): a repeat finds the one
   * stored before. Returns every user's notification, new or found, to push.
   */
  async createFor(userIds: string[], draft: NotificationDraft): Promise<Array<{ userId: string; notification: NotificationView }>> {
    if (userIds.length === 0) return [];
    const connection = this.em.fork().getConnection();
    await connection.execute(
      `insert into notification (id, user_id, kind, type, title, message, action_url, about_user_id, read, created_at, source_key)
       select gen_random_uuid(), u, ?, ?, ?, ?, ?, ?, false, now(), ? from unnest(array[?]::uuid[]) as u
       on conflict (user_id, source_key) do nothing`,
      [
        draft.kind,
        draft.type,
        NOTIFICATION_TITLES[draft.kind],
        draft.message.slice(0, 300),
        draft.actionUrl ?? null,
        draft.aboutUserId ?? null,
        draft.sourceKey,
        userIds,
      ],
    );
    const rows = await connection.execute<NotificationRow[]>(
      `select id, user_id, kind, type, title, message, action_url, read, created_at from notification
        where source_key = ? and user_id = any(array[?]::uuid[])`,
      [draft.sourceKey, userIds],
    );
    return rows.map((row) => ({ userId: row.user_id, notification: rowToView(row) }));
  }

  /**
   * Stores each user's own notification, once per (user, source key), in one write: many users told
   * different things by one event (saved searches matching a listing). Returns each, new or found, to push.
   */
  async createEach(
    items: Array<{ userId: string; draft: NotificationDraft }>,
  ): Promise<Array<{ userId: string; notification: NotificationView }>> {
    if (items.length === 0) return [];
    const column = <T>(of: (item: { userId: string; draft: NotificationDraft }) => T) => items.map(of);
    const connection = this.em.fork().getConnection();
    const rows = await connection.execute<NotificationRow[]>(
      `with drafts as (select * from unnest(array[?]::uuid[], array[?]::text[], array[?]::text[], array[?]::text[], array[?]::text[],
            array[?]::text[], array[?]::text[]) as d(user_id, kind, type, title, message, action_url, source_key)),
        inserted as (insert into notification (id, user_id, kind, type, title, message, action_url, read, created_at, source_key)
          select gen_random_uuid(), user_id, kind, type, title, message, action_url, false, now(), source_key from drafts
          on conflict (user_id, source_key) do nothing returning id, user_id, kind, type, title, message, action_url, read, created_at)
      select * from inserted
      union all
      select n.id, n.user_id, n.kind, n.type, n.title, n.message, n.action_url, n.read, n.created_at
        from drafts d join notification n on n.user_id = d.user_id and n.source_key = d.source_key`,
      [
        column((item) => item.userId),
        column((item) => item.draft.kind),
        column((item) => item.draft.type),
        column((item) => NOTIFICATION_TITLES[item.draft.kind]),
        column((item) => item.draft.message.slice(0, 300)),
        column((item) => item.draft.actionUrl ?? null),
        column((item) => item.draft.sourceKey),
      ],
    );
    return rows.map((row) => ({ userId: row.user_id, notification: rowToView(row) }));
  }

  /** A deleted account's notifications and follows, and others' notifications that name it. */
  async forget(userId: string): Promise<void> {
    await this.em.fork().transactional(async (tx) => {
      await tx.nativeDelete(Notification, { $or: [{ user: userId }, { aboutUserId: userId }] });
      await tx.nativeDelete(CategoryFollow, { user: userId });
    });
  }

  @ScheduledJob({ name: 'notifications.purge', queue: 'maintenance', everyMs: 24 * 3600_000 })
  async purge(): Promise<void> {
    const removed = await deleteInBatches(this.em, {
      table: 'notification',
      key: 'id',
      where: 'created_at < now() - make_interval(days => ?)',
      params: [NOTIFICATION_RETENTION_DAYS],
    });
    if (removed > 0) this.logger.log(`purged ${removed} notifications older than ${NOTIFICATION_RETENTION_DAYS} days`);
  }

  private async own(em: EntityManager, userId: string, id: string): Promise<Notification> {
    const notification = isUuid(id) ? await em.findOne(Notification, { id, user: userId }) : null;
    if (!notification) throw new NotFoundException(NOTIFICATION_NOT_FOUND);
    return notification;
  }
}

function followable(slug: string): FollowableCategory {
  const category = FOLLOWABLE_CATEGORIES.find((c) => c === slug);
  if (!category) throw new NotFoundException(CATEGORY_NOT_FOUND);
  return category;
}
