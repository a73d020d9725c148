import { EntityManager } from '@mikro-orm/postgresql';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { deleteInBatches } from '../database/batched-delete.js';
import { ScheduledJob } from '../queue/job-registry.js';

/** How long a user's events stay available to catch up on (a browser away longer reloads its state). */
export const EVENT_LOG_RETENTION_HOURS = 24;
/** The most events one catch-up call returns; the client asks again from the last one. */
export const EVENT_LOG_PAGE = 100;

/**
 * Parameters: users, types, payloads (JSON), keys, as arrays of one length. For each entry, the seq already
 * given to its key (when a key is given and logged for that user), else the user's next one, logged with the
 * event; all in one statement: cursors are taken in the users' order, so two appends for the same users wait for
 * each other instead of deadlocking. Each entry's seq, by its place (ord, from 1).
 */
const APPEND_MANY = `
with items as (
  select * from unnest(array[?]::uuid[], array[?]::text[], array[?]::jsonb[], array[?]::text[]) with ordinality as i(user_id, type, payload, key, ord)
), existing as (
  select i.ord, e.seq from items i join realtime_event e on e.user_id = i.user_id and e.key = i.key
), fresh as (
  select i.* from items i where not exists (select 1 from existing x where x.ord = i.ord)
), counts as (
  select user_id, count(*) as n from fresh group by user_id
), bumped as (
  insert into realtime_event_cursor (user_id, last_seq)
  select user_id, n from counts order by user_id
  on conflict (user_id) do update set last_seq = realtime_event_cursor.last_seq + excluded.last_seq
  returning user_id, last_seq
), numbered as (
  select f.*, b.last_seq - c.n + row_number() over (partition by f.user_id order by f.ord) as seq
  from fresh f join counts c on c.user_id = f.user_id join bumped b on b.user_id = f.user_id
), inserted as (
  insert into realtime_event (user_id, seq, type, payload, key, created_at)
  select user_id, seq, type, payload, key, now() from numbered
)
select ord, seq from existing union all select ord, seq from numbered`;

export interface LoggedEvent {
  seq: number;
  type: string;
  payload: unknown;
  created_at: string;
}

/**
 * The per-user log of events Realtime.toUser sends. Appending gives the event its seq; `after`
 * returns what a client missed since the last seq it handled.
 */
@Injectable()
export class RealtimeEventLog {
  private readonly logger = new Logger('Realtime');

  constructor(@Inject(EntityManager) private readonly em: EntityManager) {}

  /**
   * Appends the event and returns its seq. With a `key` already logged for this user (a retried
   * job), returns the seq it was given then, and logs nothing new.
   *
   * One statement (its own transaction, one round trip): it takes the next seq, which locks the
   * user's cursor row until the entry is committed with it.
   */
  async append(userId: string, type: string, payload: unknown, key?: string): Promise<number> {
    const [seq] = await this.appendMany([{ userId, type, payload, key }]);
    return seq as number;
  }

  /** Appends each event (as append does, for many users at once); their seqs, in the same order. */
  async appendMany(events: ReadonlyArray<{ userId: string; type: string; payload: unknown; key?: string }>): Promise<number[]> {
    if (events.length === 0) return [];
    const rows = await this.em
      .getConnection()
      .execute<Array<{ ord: string; seq: string }>>(APPEND_MANY, [
        events.map((event) => event.userId),
        events.map((event) => event.type),
        events.map((event) => JSON.stringify(event.payload)),
        events.map((event) => event.key ?? null),
      ]);
    const seqs = new Map(rows.map((row) => [Number(row.ord), Number(row.seq)]));
    return events.map((_, index) => {
      const seq = seqs.get(index + 1);
      if (seq === undefined) throw new Error('the realtime event log gave no seq');
      return seq;
    });
  }

  /**
   * The user's events after `after`, oldest first, at most one page; and the newest seq given. One statement, so
   * both come from one snapshot: read apart, an event committed between the two reads was counted in `latest` but
   * not returned, and a client that finds no events below `latest` takes them as purged and skips past them (a
   * message lost to a phone that was polling).
   */
  async after(userId: string, after: number): Promise<{ events: LoggedEvent[]; latest: number }> {
    const rows = await this.em
      .fork()
      .getConnection()
      .execute<Array<{ latest: string; seq: string | null; type: string; payload: unknown; created_at: Date }>>(
        `select coalesce((select last_seq from realtime_event_cursor where user_id = ?), 0) as latest, e.seq, e.type, e.payload, e.created_at
         from (select 1) one
         left join lateral (
           select seq, type, payload, created_at from realtime_event where user_id = ? and seq > ? order by seq limit ?
         ) e on true
        order by e.seq`,
        [userId, userId, after, EVENT_LOG_PAGE],
      );
    return {
      events: rows
        .filter((row) => row.seq !== null)
        .map((row) => ({
          seq: Number(row.seq),
          type: row.type,
          payload: typeof row.payload === 'string' ? (JSON.parse(row.payload) as unknown) : row.payload,
          created_at: new Date(row.created_at).toISOString(),
        })),
      latest: Number(rows[0]?.latest ?? 0),
    };
  }

  /** How many events are kept for the user (diagnostics). */
  async count(userId: string): Promise<number> {
    const [row] = await this.em
      .fork()
      .getConnection()
      .execute<Array<{ n: number }>>(`select count(*)::int as n from realtime_event where user_id = ?`, [userId]);
    return row?.n ?? 0;
  }

  /** A deleted account's events and counter. */
  async forget(userId: string): Promise<void> {
    await this.em.fork().transactional(async (tx) => {
      const run = (sql: string) => tx.getConnection().execute(sql, [userId], 'run', tx.getTransactionContext());
      await run(`delete from realtime_event where user_id = ?`);
      await run(`delete from realtime_event_cursor where user_id = ?`);
    });
  }

  @ScheduledJob({ name: 'realtime.purge-event-log', queue: 'maintenance', everyMs: 60 * 60_000 })
  async purge(): Promise<void> {
    const removed = await deleteInBatches(this.em, {
      table: 'realtime_event',
      key: 'ctid',
      where: 'created_at < now() - make_interval(hours => ?)',
      params: [EVENT_LOG_RETENTION_HOURS],
    });
    if (removed > 0) this.logger.log(`purged ${removed} realtime events older than ${EVENT_LOG_RETENTION_HOURS} hours`);
  }
}
