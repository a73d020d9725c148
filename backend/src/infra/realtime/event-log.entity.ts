import { Entity, Index, PrimaryKey, Property, Unique } from '@mikro-orm/decorators/legacy';

/**
 * One event sent to a user, kept for a short while so a browser that was offline (reconnecting,
 * or polling because WebSockets are blocked) can ask for what it missed: GET /api/realtime/events.
 * `seq` counts per user, without gaps, in commit order (see RealtimeEventCursor).
 */
@Entity({ tableName: 'realtime_event' })
@Unique({ properties: ['userId', 'key'] })
@Index({ properties: ['createdAt'] })
export class RealtimeEventEntry {
  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @PrimaryKey({ type: 'bigint' })
  seq!: string;

  @Property({ type: 'string', length: 60 })
  type!: string;

  @Property({ type: 'json' })
  payload!: unknown;

  /** What the event is about (e.g. "notification:<id>"): a retried job sends it again under the same seq. */
  @Property({ type: 'string', length: 200, nullable: true })
  key?: string;

  @Property({ type: 'datetime' })
  createdAt: Date = new Date();
}

/**
 * The last seq given to each user. Taking the next one locks the user's row until the commit, so
 * one user's events commit in seq order: a client that has seen seq n never misses a smaller one
 * committed later. Kept when entries are purged, so seqs never go back.
 */
@Entity({ tableName: 'realtime_event_cursor' })
export class RealtimeEventCursor {
  @PrimaryKey({ type: 'uuid' })
  userId!: string;

  @Property({ type: 'bigint' })
  lastSeq!: string;
}
